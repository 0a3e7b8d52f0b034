/* Compression-like loops, integer and fixed-point signal processing,
 * lookup tables and histograms: run-length and delta coding, varints,
 * Q15 filters, saturation, gamma tables. Written for an evaluation corpus
 * that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

size_t rle_encode(size_t n, const uint8_t *in, uint8_t *out) {
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		uint8_t v = in[i];
		size_t r = 1;
		while (i + r < n && in[i + r] == v && r < 255)
			r++;
		out[k++] = (uint8_t)r;
		out[k++] = v;
		i += r;
	}
	return k;
}

size_t rle_decode(size_t n, const uint8_t *in, uint8_t *out) {
	size_t k = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		for (uint8_t r = 0; r < in[i]; r++)
			out[k++] = in[i + 1];
	return k;
}

void delta_encode(size_t n, const int32_t *in, int32_t *out) {
	int32_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		out[i] = in[i] - prev;
		prev = in[i];
	}
}

void delta_decode(size_t n, int32_t *a) {
	for (size_t i = 1; i < n; i++)
		a[i] += a[i - 1];
}

void zigzag_encode(size_t n, const int64_t *in, uint64_t *out) {
	for (size_t i = 0; i < n; i++)
		out[i] = (uint64_t)(in[i] << 1) ^ (uint64_t)(in[i] >> 63);
}

size_t varint_encode(uint64_t v, uint8_t *out) {
	size_t k = 0;
	while (v >= 0x80) {
		out[k++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[k++] = (uint8_t)v;
	return k;
}

uint64_t varint_decode(const uint8_t *p, size_t *len) {
	uint64_t v = 0;
	int s = 0;
	size_t i = 0;
	for (;; i++) {
		v |= (uint64_t)(p[i] & 0x7F) << s;
		if (!(p[i] & 0x80))
			break;
		s += 7;
	}
	*len = i + 1;
	return v;
}

size_t match_length(const uint8_t *a, const uint8_t *b, size_t max) {
	size_t l = 0;
	while (l < max && a[l] == b[l])
		l++;
	return l;
}

size_t match_length64(const uint8_t *a, const uint8_t *b, size_t max) {
	size_t l = 0;
	while (l + 8 <= max) {
		uint64_t x, y;
		__builtin_memcpy(&x, a + l, 8);
		__builtin_memcpy(&y, b + l, 8);
		if (x != y)
			return l + (size_t)(__builtin_ctzll(x ^ y) >> 3);
		l += 8;
	}
	while (l < max && a[l] == b[l])
		l++;
	return l;
}

uint32_t lz_hash4(const uint8_t *p) {
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return (v * 2654435761u) >> 20;
}

void lz_fill_table(size_t n, const uint8_t *p, uint32_t *table) {
	for (size_t i = 0; i + 4 <= n; i++)
		table[lz_hash4(p + i)] = (uint32_t)i;
}

void copy_match(uint8_t *out, size_t pos, size_t dist, size_t len) {
	for (size_t i = 0; i < len; i++)
		out[pos + i] = out[pos + i - dist];
}

void mtf_encode(size_t n, const uint8_t *in, uint8_t *out, uint8_t order[256]) {
	for (size_t i = 0; i < n; i++) {
		uint8_t c = in[i], j = 0;
		while (order[j] != c)
			j++;
		out[i] = j;
		for (; j > 0; j--)
			order[j] = order[j - 1];
		order[0] = c;
	}
}

void fir_q15(size_t n, const int16_t *x, const int16_t *h, size_t taps, int16_t *y) {
	for (size_t i = 0; i + taps <= n; i++) {
		int32_t acc = 1 << 14;
		for (size_t k = 0; k < taps; k++)
			acc += x[i + k] * h[k];
		y[i] = (int16_t)(acc >> 15);
	}
}

void biquad_q14(size_t n, const int16_t *x, int16_t *y, const int32_t c[5], int32_t st[4]) {
	int32_t x1 = st[0], x2 = st[1], y1 = st[2], y2 = st[3];
	for (size_t i = 0; i < n; i++) {
		int32_t acc = c[0] * x[i] + c[1] * x1 + c[2] * x2 - c[3] * y1 - c[4] * y2;
		int32_t v = acc >> 14;
		x2 = x1, x1 = x[i], y2 = y1, y1 = v;
		y[i] = (int16_t)v;
	}
	st[0] = x1, st[1] = x2, st[2] = y1, st[3] = y2;
}

static inline int16_t sat16(int32_t v) { return v > 32767 ? 32767 : v < -32768 ? -32768 : (int16_t)v; }

void mix_saturate(size_t n, const int16_t *a, const int16_t *b, int16_t *out) {
	for (size_t i = 0; i < n; i++)
		out[i] = sat16(a[i] + b[i]);
}

void gain_q8(size_t n, int16_t *s, int32_t gain) {
	for (size_t i = 0; i < n; i++)
		s[i] = sat16((s[i] * gain) >> 8);
}

void downmix_stereo(size_t n, const int16_t *lr, int16_t *mono) {
	for (size_t i = 0; i < n; i++)
		mono[i] = (int16_t)((lr[2 * i] + lr[2 * i + 1]) >> 1);
}

int32_t energy_q15(size_t n, const int16_t *s) {
	int64_t e = 0;
	for (size_t i = 0; i < n; i++)
		e += s[i] * s[i];
	return (int32_t)(e >> 15);
}

void dc_block(size_t n, int32_t *s, int32_t *state) {
	int32_t xm = state[0], ym = state[1];
	for (size_t i = 0; i < n; i++) {
		int32_t y = s[i] - xm + ((ym * 255) >> 8);
		xm = s[i];
		ym = y;
		s[i] = y;
	}
	state[0] = xm, state[1] = ym;
}

uint32_t nco_fill(size_t n, int16_t *out, const int16_t sine[1024], uint32_t phase, uint32_t step) {
	for (size_t i = 0; i < n; i++) {
		out[i] = sine[phase >> 22];
		phase += step;
	}
	return phase;
}

void apply_lut(size_t n, uint8_t *p, const uint8_t lut[256]) {
	for (size_t i = 0; i < n; i++)
		p[i] = lut[p[i]];
}

void lut16_expand(size_t n, const uint8_t *in, uint16_t *out, const uint16_t lut[256]) {
	for (size_t i = 0; i < n; i++)
		out[i] = lut[in[i]];
}

void histogram4(size_t n, const uint8_t *p, uint32_t h[4][256]) {
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		h[0][p[i]]++;
		h[1][p[i + 1]]++;
		h[2][p[i + 2]]++;
		h[3][p[i + 3]]++;
	}
	for (; i < n; i++)
		h[0][p[i]]++;
}

void histogram_u16_bins(size_t n, const uint16_t *v, uint32_t *bins, unsigned shift) {
	for (size_t i = 0; i < n; i++)
		bins[v[i] >> shift]++;
}

void cumulative(size_t n, const uint32_t *h, uint32_t *cdf) {
	uint32_t s = 0;
	for (size_t i = 0; i < n; i++)
		cdf[i] = s += h[i];
}

size_t quantize(size_t n, const float *x, int8_t *q, float inv_step) {
	size_t clipped = 0;
	for (size_t i = 0; i < n; i++) {
		int v = (int)(x[i] * inv_step + (x[i] >= 0 ? 0.5f : -0.5f));
		if (v > 127)
			v = 127, clipped++;
		else if (v < -127)
			v = -127, clipped++;
		q[i] = (int8_t)v;
	}
	return clipped;
}

void dequantize(size_t n, const int8_t *q, float *x, float step) {
	for (size_t i = 0; i < n; i++)
		x[i] = q[i] * step;
}

size_t bitpack4(size_t n, const uint8_t *in, uint8_t *out) {
	size_t k = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		out[k++] = (uint8_t)((in[i] & 15) | in[i + 1] << 4);
	return k;
}

void bitunpack4(size_t n, const uint8_t *in, uint8_t *out) {
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = in[i] & 15;
		out[2 * i + 1] = in[i] >> 4;
	}
}

uint32_t bitreader_sum(size_t n, const uint8_t *p, unsigned width) {
	uint64_t buf = 0;
	unsigned have = 0;
	uint32_t s = 0;
	size_t i = 0;
	for (size_t k = 0; k < n; k++) {
		while (have < width) {
			buf |= (uint64_t)p[i++] << have;
			have += 8;
		}
		s += (uint32_t)(buf & ((1u << width) - 1));
		buf >>= width;
		have -= width;
	}
	return s;
}

void soa_accounts(size_t n, int64_t *balance, const int32_t *delta, uint8_t *overdrawn, int64_t limit) {
	for (size_t i = 0; i < n; i++) {
		balance[i] += delta[i];
		overdrawn[i] = balance[i] < -limit;
	}
}
