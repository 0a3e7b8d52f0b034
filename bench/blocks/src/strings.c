/* String, byte-buffer and hashing loops, written for the block corpus. */
#include <stddef.h>
#include <stdint.h>

size_t my_strlen(const char *s) {
	const char *p = s;
	while (*p)
		p++;
	return p - s;
}

int my_strcmp(const char *a, const char *b) {
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

void to_upper(size_t n, char *s) {
	for (size_t i = 0; i < n; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			s[i] -= 32;
}

size_t count_char(size_t n, const char *s, char c) {
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == c;
	return k;
}

void byte_copy(size_t n, unsigned char *restrict d, const unsigned char *restrict s) {
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

void reverse(size_t n, char *s) {
	for (size_t i = 0, j = n - 1; i < j; i++, j--) {
		char t = s[i];
		s[i] = s[j];
		s[j] = t;
	}
}

uint32_t fnv1a(size_t n, const unsigned char *s) {
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 16777619u;
	}
	return h;
}

uint64_t fnv1a64(size_t n, const unsigned char *s) {
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint32_t djb2(const char *s) {
	uint32_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

uint32_t murmur_mix(size_t n, const uint32_t *k) {
	uint32_t h = 0x12345678;
	for (size_t i = 0; i < n; i++) {
		uint32_t x = k[i] * 0xcc9e2d51u;
		x = (x << 15) | (x >> 17);
		x *= 0x1b873593u;
		h ^= x;
		h = (h << 13) | (h >> 19);
		h = h * 5 + 0xe6546b64u;
	}
	return h;
}

uint64_t xorshift_fill(size_t n, uint64_t *a, uint64_t s) {
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		a[i] = s;
	}
	return s;
}

uint32_t crc32_bitwise(size_t n, const unsigned char *s) {
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= s[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

uint32_t crc32_table(size_t n, const unsigned char *s, const uint32_t *table) {
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ s[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

uint32_t adler32(size_t n, const unsigned char *s) {
	uint32_t a = 1, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + s[i]) % 65521;
		b = (b + a) % 65521;
	}
	return (b << 16) | a;
}

size_t hex_encode(size_t n, const unsigned char *restrict s, char *restrict out) {
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[s[i] >> 4];
		out[2 * i + 1] = digits[s[i] & 15];
	}
	return 2 * n;
}

size_t utf8_count(size_t n, const unsigned char *s) {
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += (s[i] & 0xc0) != 0x80;
	return k;
}

long atoi_loop(const char *s) {
	long v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

long lookup(size_t n, const unsigned *keys, const long *vals, size_t mask, const unsigned *q, size_t m) {
	long s = 0;
	for (size_t i = 0; i < m; i++) {
		size_t h = (q[i] * 2654435761u) & mask;
		while (keys[h] != q[i] && keys[h] != 0)
			h = (h + 1) & mask;
		s += vals[h];
	}
	return s + (long)n;
}
