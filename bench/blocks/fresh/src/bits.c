/* Bit-manipulation, encoding and checksum loops, written for the fresh
 * evaluation corpus. */
#include <stddef.h>
#include <stdint.h>

unsigned popcount_loop(size_t n, const uint64_t *p) {
	unsigned c = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = p[i];
		while (x) {
			x &= x - 1;
			c++;
		}
	}
	return c;
}

uint32_t bit_reverse32(uint32_t x) {
	uint32_t r = 0;
	for (int i = 0; i < 32; i++) {
		r = (r << 1) | (x & 1);
		x >>= 1;
	}
	return r;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encode(size_t n, const uint8_t *restrict in, char *restrict out) {
	size_t o = 0;
	for (size_t i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = b64[(v >> 6) & 63];
		out[o++] = b64[v & 63];
	}
	return o;
}

size_t varint_encode(uint64_t v, uint8_t *out) {
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

uint64_t varint_decode(const uint8_t *p, size_t *len) {
	uint64_t v = 0;
	unsigned shift = 0;
	size_t i = 0;
	for (;;) {
		uint8_t b = p[i++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*len = i;
	return v;
}

uint32_t crc32c_bitwise(size_t n, const uint8_t *p) {
	uint32_t crc = ~0u;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & -(crc & 1));
	}
	return ~crc;
}

uint64_t xorshift_fill(size_t n, uint64_t *out, uint64_t s) {
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		out[i] = s;
	}
	return s;
}

uint64_t splitmix_sum(size_t n, uint64_t s) {
	uint64_t acc = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		acc += z ^ (z >> 31);
	}
	return acc;
}

void bitset_and(size_t n, uint64_t *restrict a, const uint64_t *restrict b, const uint64_t *restrict c) {
	for (size_t i = 0; i < n; i++)
		a[i] = (a[i] & b[i]) | ~c[i];
}

size_t bitset_first(size_t n, const uint64_t *p) {
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return i * 64 + (size_t)__builtin_ctzll(p[i]);
	return (size_t)-1;
}

uint32_t gray_code_sum(uint32_t n) {
	uint32_t s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += i ^ (i >> 1);
	return s;
}

void rle_encode(size_t n, const uint8_t *restrict in, uint8_t *restrict out, size_t *outn) {
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		uint8_t b = in[i];
		size_t run = 1;
		while (i + run < n && in[i + run] == b && run < 255)
			run++;
		out[o++] = (uint8_t)run;
		out[o++] = b;
		i += run;
	}
	*outn = o;
}
