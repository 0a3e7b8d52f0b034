/* Numeric loops (scans, polynomials, small transforms), written for the
 * fresh evaluation corpus. */
#include <stddef.h>
#include <stdint.h>

void prefix_sum_i64(size_t n, int64_t *p) {
	for (size_t i = 1; i < n; i++)
		p[i] += p[i - 1];
}

double horner(size_t n, const double *c, double x) {
	double r = 0;
	for (size_t i = n; i-- > 0;)
		r = r * x + c[i];
	return r;
}

void poly_eval(size_t n, const float *restrict x, float *restrict y) {
	for (size_t i = 0; i < n; i++) {
		float t = x[i];
		y[i] = ((0.25f * t + 0.5f) * t - 1.0f) * t + 2.0f;
	}
}

void complex_mul(size_t n, const float *restrict a, const float *restrict b, float *restrict c) {
	for (size_t i = 0; i < n; i++) {
		float ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1];
		c[2 * i] = ar * br - ai * bi;
		c[2 * i + 1] = ar * bi + ai * br;
	}
}

void transpose(size_t n, const double *restrict a, double *restrict t) {
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			t[j * n + i] = a[i * n + j];
}

int32_t dot_i16(size_t n, const int16_t *a, const int16_t *b) {
	int32_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

double newton_sqrt(double x) {
	double r = x > 1 ? x : 1;
	for (int i = 0; i < 30; i++)
		r = 0.5 * (r + x / r);
	return r;
}

void lerp(size_t n, const double *restrict a, const double *restrict b, double t, double *restrict out) {
	for (size_t i = 0; i < n; i++)
		out[i] = a[i] + t * (b[i] - a[i]);
}

double variance(size_t n, const double *p) {
	double m = 0, s = 0;
	for (size_t i = 0; i < n; i++) {
		double d = p[i] - m;
		m += d / (double)(i + 1);
		s += d * (p[i] - m);
	}
	return n > 1 ? s / (double)(n - 1) : 0;
}

int64_t sum_abs_diff(size_t n, const int32_t *a, const int32_t *b) {
	int64_t s = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t d = (int64_t)a[i] - b[i];
		s += d < 0 ? -d : d;
	}
	return s;
}

void scale_add_i32(size_t n, int32_t *restrict y, const int32_t *restrict x, int32_t k) {
	for (size_t i = 0; i < n; i++)
		y[i] = y[i] * 3 + x[i] * k;
}

void fir4(size_t n, const float *restrict x, float *restrict y, const float h[4]) {
	for (size_t i = 3; i < n; i++)
		y[i] = h[0] * x[i] + h[1] * x[i - 1] + h[2] * x[i - 2] + h[3] * x[i - 3];
}

uint64_t gcd_sum(size_t n, const uint64_t *a, const uint64_t *b) {
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = a[i], y = b[i];
		while (y) {
			uint64_t t = x % y;
			x = y;
			y = t;
		}
		s += x;
	}
	return s;
}

void insertion_sort_f64(size_t n, double *a) {
	for (size_t i = 1; i < n; i++) {
		double v = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

size_t lower_bound_u32(size_t n, const uint32_t *a, uint32_t key) {
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void matvec_f32(size_t n, const float *restrict a, const float *restrict x, float *restrict y) {
	for (size_t i = 0; i < n; i++) {
		float s = 0;
		for (size_t j = 0; j < n; j++)
			s += a[i * n + j] * x[j];
		y[i] = s;
	}
}
