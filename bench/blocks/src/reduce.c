/* Reductions, scans and element-wise loops over arrays, written for the
 * block corpus. */
#include <stddef.h>
#include <stdint.h>

long sum_i64(size_t n, const long *a) {
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	return s;
}

int sum_i32(size_t n, const int *a) {
	int s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	return s;
}

double sum_f64(size_t n, const double *a) {
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	return s;
}

float sum_sq_f32(size_t n, const float *a) {
	float s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * a[i];
	return s;
}

long max_i64(size_t n, const long *a) {
	long m = a[0];
	for (size_t i = 1; i < n; i++)
		if (a[i] > m)
			m = a[i];
	return m;
}

double min_f64(size_t n, const double *a) {
	double m = a[0];
	for (size_t i = 1; i < n; i++)
		m = a[i] < m ? a[i] : m;
	return m;
}

size_t count_eq(size_t n, const int *a, int v) {
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += a[i] == v;
	return c;
}

uint64_t popcount_sum(size_t n, const uint64_t *a) {
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += __builtin_popcountll(a[i]);
	return s;
}

uint32_t xor_reduce(size_t n, const uint32_t *a) {
	uint32_t x = 0;
	for (size_t i = 0; i < n; i++)
		x ^= a[i] * 0x9e3779b1u;
	return x;
}

void scale_add(size_t n, float *restrict y, const float *restrict x, float a, float b) {
	for (size_t i = 0; i < n; i++)
		y[i] = a * x[i] + b;
}

void clamp_i32(size_t n, int *a, int lo, int hi) {
	for (size_t i = 0; i < n; i++)
		a[i] = a[i] < lo ? lo : a[i] > hi ? hi : a[i];
}

void i32_to_f64(size_t n, const int *restrict a, double *restrict b) {
	for (size_t i = 0; i < n; i++)
		b[i] = a[i];
}

void f64_to_i32(size_t n, const double *restrict a, int *restrict b) {
	for (size_t i = 0; i < n; i++)
		b[i] = (int)a[i];
}

void u8_to_f32(size_t n, const uint8_t *restrict a, float *restrict b) {
	for (size_t i = 0; i < n; i++)
		b[i] = a[i] * (1.0f / 255);
}

void gather_f64(size_t n, const int *restrict idx, const double *restrict a, double *restrict b) {
	for (size_t i = 0; i < n; i++)
		b[i] = a[idx[i]];
}

void scatter_add(size_t n, const int *restrict idx, const double *restrict v, double *restrict a) {
	for (size_t i = 0; i < n; i++)
		a[idx[i]] += v[i];
}

double horner(size_t n, const double *c, double x) {
	double r = 0;
	for (size_t i = n; i > 0; i--)
		r = r * x + c[i - 1];
	return r;
}

double norm2(size_t n, const double *a) {
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * a[i];
	return __builtin_sqrt(s);
}

long dot_i16(size_t n, const short *a, const short *b) {
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

void complex_mul(size_t n, const double *restrict a, const double *restrict b, double *restrict c) {
	for (size_t i = 0; i < n; i++) {
		double re = a[2 * i] * b[2 * i] - a[2 * i + 1] * b[2 * i + 1];
		double im = a[2 * i] * b[2 * i + 1] + a[2 * i + 1] * b[2 * i];
		c[2 * i] = re;
		c[2 * i + 1] = im;
	}
}

long divide_sum(size_t n, const long *a, long d) {
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] / d;
	return s;
}

unsigned mod_sum(size_t n, const unsigned *a, unsigned m) {
	unsigned s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] % m;
	return s;
}
