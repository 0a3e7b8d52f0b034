/* Checksums, hash mixing, sorting and searching: the inner loops of
 * integrity checks, hash tables and ordered arrays. Written for an
 * evaluation corpus that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

uint16_t fletcher16(size_t n, const uint8_t *p) {
	uint32_t a = 0, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 255;
		b = (b + a) % 255;
	}
	return (uint16_t)(b << 8 | a);
}

uint16_t inet_checksum(size_t n, const uint16_t *p) {
	uint32_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

uint16_t crc16_ccitt(size_t n, const uint8_t *p) {
	uint16_t c = 0xFFFF;
	for (size_t i = 0; i < n; i++) {
		c ^= (uint16_t)(p[i] << 8);
		for (int k = 0; k < 8; k++)
			c = (c & 0x8000) ? (uint16_t)(c << 1 ^ 0x1021) : (uint16_t)(c << 1);
	}
	return c;
}

uint32_t crc32_table(size_t n, const uint8_t *p, const uint32_t tab[256]) {
	uint32_t c = ~0u;
	for (size_t i = 0; i < n; i++)
		c = tab[(c ^ p[i]) & 0xFF] ^ (c >> 8);
	return ~c;
}

uint32_t one_at_a_time(size_t n, const uint8_t *p) {
	uint32_t h = 0;
	for (size_t i = 0; i < n; i++) {
		h += p[i];
		h += h << 10;
		h ^= h >> 6;
	}
	h += h << 3;
	h ^= h >> 11;
	return h + (h << 15);
}

uint8_t bsd_sum(size_t n, const uint8_t *p) {
	uint16_t s = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint16_t)(((s >> 1) | (s << 15)) + p[i]);
	return (uint8_t)s;
}

static inline uint64_t rotl64(uint64_t x, int r) { return x << r | x >> (64 - r); }

uint64_t xx_rounds(size_t n, const uint64_t *p, uint64_t seed) {
	const uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full;
	uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
	for (size_t i = 0; i + 4 <= n; i += 4) {
		v1 = rotl64(v1 + p[i] * P2, 31) * P1;
		v2 = rotl64(v2 + p[i + 1] * P2, 31) * P1;
		v3 = rotl64(v3 + p[i + 2] * P2, 31) * P1;
		v4 = rotl64(v4 + p[i + 3] * P2, 31) * P1;
	}
	return rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
}

void sip_rounds(uint64_t v[4], int rounds) {
	for (int r = 0; r < rounds; r++) {
		v[0] += v[1]; v[1] = rotl64(v[1], 13); v[1] ^= v[0]; v[0] = rotl64(v[0], 32);
		v[2] += v[3]; v[3] = rotl64(v[3], 16); v[3] ^= v[2];
		v[0] += v[3]; v[3] = rotl64(v[3], 21); v[3] ^= v[0];
		v[2] += v[1]; v[1] = rotl64(v[1], 17); v[1] ^= v[2]; v[2] = rotl64(v[2], 32);
	}
}

uint64_t splitmix_fill(size_t n, uint64_t *out, uint64_t s) {
	for (size_t i = 0; i < n; i++) {
		uint64_t z = (s += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		out[i] = z ^ (z >> 31);
	}
	return s;
}

uint32_t xorshift_fill(size_t n, uint32_t *out, uint32_t x) {
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		out[i] = x;
	}
	return x;
}

long probe_linear(size_t mask, const uint64_t *keys, uint64_t k) {
	size_t i = (size_t)(k * 0x9E3779B97F4A7C15ull >> 40) & mask;
	while (keys[i] != 0) {
		if (keys[i] == k)
			return (long)i;
		i = (i + 1) & mask;
	}
	return -1;
}

void insertion_sort_u32(size_t n, uint32_t *a) {
	for (size_t i = 1; i < n; i++) {
		uint32_t v = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

struct kv {
	uint32_t key;
	uint32_t val;
};

void insertion_sort_kv(size_t n, struct kv *a) {
	for (size_t i = 1; i < n; i++) {
		struct kv v = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1].key > v.key; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

void shell_sort(size_t n, int *a) {
	for (size_t gap = n / 2; gap > 0; gap /= 2)
		for (size_t i = gap; i < n; i++) {
			int v = a[i];
			size_t j = i;
			for (; j >= gap && a[j - gap] > v; j -= gap)
				a[j] = a[j - gap];
			a[j] = v;
		}
}

void counting_sort_u8(size_t n, const uint8_t *in, uint8_t *out, uint32_t cnt[256]) {
	for (size_t i = 0; i < n; i++)
		cnt[in[i]]++;
	size_t k = 0;
	for (unsigned v = 0; v < 256; v++)
		for (uint32_t c = 0; c < cnt[v]; c++)
			out[k++] = (uint8_t)v;
}

void radix_pass(size_t n, const uint32_t *in, uint32_t *out, int shift, uint32_t off[256]) {
	for (size_t i = 0; i < n; i++)
		off[(in[i] >> shift) & 0xFF]++;
	uint32_t s = 0;
	for (int b = 0; b < 256; b++) {
		uint32_t c = off[b];
		off[b] = s;
		s += c;
	}
	for (size_t i = 0; i < n; i++)
		out[off[(in[i] >> shift) & 0xFF]++] = in[i];
}

void merge_runs(size_t na, const int *a, size_t nb, const int *b, int *out) {
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

size_t partition_lomuto(size_t n, long *a) {
	long p = a[n - 1];
	size_t s = 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (a[i] < p) {
			long t = a[i];
			a[i] = a[s];
			a[s++] = t;
		}
	a[n - 1] = a[s];
	a[s] = p;
	return s;
}

void sift_down(size_t n, uint32_t *h, size_t i) {
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && h[l] > h[m])
			m = l;
		if (l + 1 < n && h[l + 1] > h[m])
			m = l + 1;
		if (m == i)
			return;
		uint32_t t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

size_t lower_bound_branchless(size_t n, const int *a, int x) {
	const int *base = a;
	while (n > 1) {
		size_t half = n / 2;
		base = base[half] < x ? base + half : base;
		n -= half;
	}
	return (size_t)(base - a) + (n == 1 && *base < x);
}

long interpolation_search(size_t n, const uint32_t *a, uint32_t x) {
	size_t lo = 0, hi = n - 1;
	while (lo <= hi && x >= a[lo] && x <= a[hi]) {
		if (a[hi] == a[lo])
			return a[lo] == x ? (long)lo : -1;
		size_t pos = lo + (size_t)((uint64_t)(x - a[lo]) * (hi - lo) / (a[hi] - a[lo]));
		if (a[pos] == x)
			return (long)pos;
		if (a[pos] < x)
			lo = pos + 1;
		else
			hi = pos - 1;
	}
	return -1;
}

size_t count_less(size_t n, const float *a, float x) {
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += a[i] < x;
	return c;
}

size_t max_index(size_t n, const double *a) {
	size_t m = 0;
	for (size_t i = 1; i < n; i++)
		if (a[i] > a[m])
			m = i;
	return m;
}

int is_sorted_i16(size_t n, const int16_t *a) {
	for (size_t i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}

size_t dedup_sorted(size_t n, uint64_t *a) {
	if (n == 0)
		return 0;
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (a[i] != a[k - 1])
			a[k++] = a[i];
	return k;
}
