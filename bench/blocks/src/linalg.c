/* Dense linear algebra kernels in the style of PolyBench/C 4.2
 * (gemm, 2mm, 3mm, atax, bicg, mvt, gemver, gesummv, syrk, trmm, symm),
 * written for the block corpus. */
#include <stddef.h>

void gemm(int n, double alpha, double beta, double *restrict c,
          const double *restrict a, const double *restrict b) {
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			c[i * n + j] *= beta;
		for (int k = 0; k < n; k++)
			for (int j = 0; j < n; j++)
				c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
	}
}

void gemm_f32(int n, float alpha, float *restrict c, const float *restrict a,
              const float *restrict b) {
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++)
			for (int j = 0; j < n; j++)
				c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
}

void mm2(int n, double alpha, double beta, double *restrict tmp,
         const double *restrict a, const double *restrict b,
         const double *restrict c, double *restrict d) {
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int k = 0; k < n; k++)
				s += alpha * a[i * n + k] * b[k * n + j];
			tmp[i * n + j] = s;
		}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			d[i * n + j] *= beta;
			for (int k = 0; k < n; k++)
				d[i * n + j] += tmp[i * n + k] * c[k * n + j];
		}
}

void atax(int m, int n, const double *restrict a, const double *restrict x,
          double *restrict y, double *restrict tmp) {
	for (int i = 0; i < n; i++)
		y[i] = 0;
	for (int i = 0; i < m; i++) {
		tmp[i] = 0;
		for (int j = 0; j < n; j++)
			tmp[i] += a[i * n + j] * x[j];
		for (int j = 0; j < n; j++)
			y[j] += a[i * n + j] * tmp[i];
	}
}

void bicg(int m, int n, const double *restrict a, double *restrict s,
          double *restrict q, const double *restrict p, const double *restrict r) {
	for (int i = 0; i < m; i++)
		s[i] = 0;
	for (int i = 0; i < n; i++) {
		q[i] = 0;
		for (int j = 0; j < m; j++) {
			s[j] += r[i] * a[i * m + j];
			q[i] += a[i * m + j] * p[j];
		}
	}
}

void mvt(int n, double *restrict x1, double *restrict x2, const double *restrict y1,
         const double *restrict y2, const double *restrict a) {
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			x1[i] += a[i * n + j] * y1[j];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			x2[i] += a[j * n + i] * y2[j];
}

void gemver(int n, double alpha, double beta, double *restrict a,
            const double *restrict u1, const double *restrict v1,
            const double *restrict u2, const double *restrict v2,
            double *restrict w, double *restrict x, const double *restrict y,
            const double *restrict z) {
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			a[i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			x[i] += beta * a[j * n + i] * y[j];
	for (int i = 0; i < n; i++)
		x[i] += z[i];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			w[i] += alpha * a[i * n + j] * x[j];
}

void gesummv(int n, double alpha, double beta, const double *restrict a,
             const double *restrict b, double *restrict tmp, const double *restrict x,
             double *restrict y) {
	for (int i = 0; i < n; i++) {
		tmp[i] = 0;
		y[i] = 0;
		for (int j = 0; j < n; j++) {
			tmp[i] += a[i * n + j] * x[j];
			y[i] += b[i * n + j] * x[j];
		}
		y[i] = alpha * tmp[i] + beta * y[i];
	}
}

void syrk(int n, int m, double alpha, double beta, double *restrict c,
          const double *restrict a) {
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++)
			c[i * n + j] *= beta;
		for (int k = 0; k < m; k++)
			for (int j = 0; j <= i; j++)
				c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
	}
}

void trmm(int m, int n, double alpha, double *restrict a, double *restrict b) {
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			for (int k = i + 1; k < m; k++)
				b[i * n + j] += a[k * m + i] * b[k * n + j];
			b[i * n + j] = alpha * b[i * n + j];
		}
}

void matvec_i32(int n, const int *restrict a, const int *restrict x, int *restrict y) {
	for (int i = 0; i < n; i++) {
		int s = 0;
		for (int j = 0; j < n; j++)
			s += a[i * n + j] * x[j];
		y[i] = s;
	}
}

double dot(size_t n, const double *a, const double *b) {
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

float dot_f32(size_t n, const float *a, const float *b) {
	float s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

void axpy(size_t n, double a, const double *restrict x, double *restrict y) {
	for (size_t i = 0; i < n; i++)
		y[i] += a * x[i];
}

void axpy_f32(size_t n, float a, const float *restrict x, float *restrict y) {
	for (size_t i = 0; i < n; i++)
		y[i] += a * x[i];
}
