/* Stencil and time-stepping kernels in the style of PolyBench/C 4.2
 * (jacobi-1d, jacobi-2d, seidel-2d, heat-3d, fdtd-2d, adi), written for the
 * block corpus. */

void jacobi1d(int t, int n, double *restrict a, double *restrict b) {
	for (int s = 0; s < t; s++) {
		for (int i = 1; i < n - 1; i++)
			b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
		for (int i = 1; i < n - 1; i++)
			a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
	}
}

void jacobi2d(int t, int n, double *restrict a, double *restrict b) {
	for (int s = 0; s < t; s++) {
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				b[i * n + j] = 0.2 * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] +
				                      a[(i + 1) * n + j] + a[(i - 1) * n + j]);
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				a[i * n + j] = 0.2 * (b[i * n + j] + b[i * n + j - 1] + b[i * n + j + 1] +
				                      b[(i + 1) * n + j] + b[(i - 1) * n + j]);
	}
}

void seidel2d(int t, int n, double *a) {
	for (int s = 0; s < t; s++)
		for (int i = 1; i <= n - 2; i++)
			for (int j = 1; j <= n - 2; j++)
				a[i * n + j] = (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j] + a[(i - 1) * n + j + 1] +
				                a[i * n + j - 1] + a[i * n + j] + a[i * n + j + 1] +
				                a[(i + 1) * n + j - 1] + a[(i + 1) * n + j] + a[(i + 1) * n + j + 1]) /
				               9.0;
}

void heat3d(int t, int n, double *restrict a, double *restrict b) {
#define A(i, j, k) a[((i) * n + (j)) * n + (k)]
#define B(i, j, k) b[((i) * n + (j)) * n + (k)]
	for (int s = 0; s < t; s++)
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				for (int k = 1; k < n - 1; k++)
					B(i, j, k) = 0.125 * (A(i + 1, j, k) - 2.0 * A(i, j, k) + A(i - 1, j, k)) +
					             0.125 * (A(i, j + 1, k) - 2.0 * A(i, j, k) + A(i, j - 1, k)) +
					             0.125 * (A(i, j, k + 1) - 2.0 * A(i, j, k) + A(i, j, k - 1)) +
					             A(i, j, k);
#undef A
#undef B
}

void fdtd2d(int t, int nx, int ny, double *restrict ex, double *restrict ey,
            double *restrict hz, const double *restrict fict) {
	for (int s = 0; s < t; s++) {
		for (int j = 0; j < ny; j++)
			ey[j] = fict[s];
		for (int i = 1; i < nx; i++)
			for (int j = 0; j < ny; j++)
				ey[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
		for (int i = 0; i < nx; i++)
			for (int j = 1; j < ny; j++)
				ex[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
		for (int i = 0; i < nx - 1; i++)
			for (int j = 0; j < ny - 1; j++)
				hz[i * ny + j] -= 0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] +
				                         ey[(i + 1) * ny + j] - ey[i * ny + j]);
	}
}

void blur_u8(int w, int h, const unsigned char *restrict in, unsigned char *restrict out) {
	for (int y = 1; y < h - 1; y++)
		for (int x = 1; x < w - 1; x++)
			out[y * w + x] = (in[y * w + x - 1] + 2 * in[y * w + x] + in[y * w + x + 1]) >> 2;
}

void conv1d_f32(int n, int k, const float *restrict in, const float *restrict w, float *restrict out) {
	for (int i = 0; i + k <= n; i++) {
		float s = 0;
		for (int j = 0; j < k; j++)
			s += in[i + j] * w[j];
		out[i] = s;
	}
}

void prefix_sum(int n, long *a) {
	for (int i = 1; i < n; i++)
		a[i] += a[i - 1];
}

void recurrence(int n, double *x, const double *a, const double *b) {
	for (int i = 1; i < n; i++)
		x[i] = a[i] * x[i - 1] + b[i];
}
