/* Geometry, small dense linear algebra and stencils of other shapes:
 * the loops of collision tests, transforms and grid solvers. Written for
 * an evaluation corpus that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

struct vec3 {
	float x, y, z;
};

double polygon_area(size_t n, const double *x, const double *y) {
	double s = 0;
	for (size_t i = 0, j = n - 1; i < n; j = i++)
		s += (x[j] + x[i]) * (y[j] - y[i]);
	return s * 0.5;
}

int point_in_polygon(size_t n, const float *x, const float *y, float px, float py) {
	int in = 0;
	for (size_t i = 0, j = n - 1; i < n; j = i++)
		if ((y[i] > py) != (y[j] > py) && px < (x[j] - x[i]) * (py - y[i]) / (y[j] - y[i]) + x[i])
			in = !in;
	return in;
}

void bounding_box(size_t n, const float *x, const float *y, float box[4]) {
	float x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
	for (size_t i = 1; i < n; i++) {
		x0 = x[i] < x0 ? x[i] : x0;
		x1 = x[i] > x1 ? x[i] : x1;
		y0 = y[i] < y0 ? y[i] : y0;
		y1 = y[i] > y1 ? y[i] : y1;
	}
	box[0] = x0, box[1] = y0, box[2] = x1, box[3] = y1;
}

void cross_products(size_t n, const struct vec3 *a, const struct vec3 *b, struct vec3 *c) {
	for (size_t i = 0; i < n; i++) {
		c[i].x = a[i].y * b[i].z - a[i].z * b[i].y;
		c[i].y = a[i].z * b[i].x - a[i].x * b[i].z;
		c[i].z = a[i].x * b[i].y - a[i].y * b[i].x;
	}
}

void normalize_soa(size_t n, float *x, float *y, float *z) {
	for (size_t i = 0; i < n; i++) {
		float l2 = x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
		float r = 1.0f / __builtin_sqrtf(l2);
		x[i] *= r, y[i] *= r, z[i] *= r;
	}
}

void transform_points(size_t n, const float m[12], const struct vec3 *in, struct vec3 *out) {
	for (size_t i = 0; i < n; i++) {
		float x = in[i].x, y = in[i].y, z = in[i].z;
		out[i].x = m[0] * x + m[1] * y + m[2] * z + m[3];
		out[i].y = m[4] * x + m[5] * y + m[6] * z + m[7];
		out[i].z = m[8] * x + m[9] * y + m[10] * z + m[11];
	}
}

void mat4_mul(const float *restrict a, const float *restrict b, float *restrict c) {
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			float s = 0;
			for (int k = 0; k < 4; k++)
				s += a[4 * i + k] * b[4 * k + j];
			c[4 * i + j] = s;
		}
}

double det3(const double m[9]) {
	return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
	       m[2] * (m[3] * m[7] - m[4] * m[6]);
}

void quat_mul_many(size_t n, const float *restrict q, const float *restrict r, float *restrict o) {
	for (size_t i = 0; i < n; i++) {
		const float *a = q + 4 * i, *b = r + 4 * i;
		float *c = o + 4 * i;
		c[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
		c[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
		c[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
		c[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
	}
}

size_t nearest_point(size_t n, const float *x, const float *y, float px, float py) {
	size_t best = 0;
	float bd = 3.4e38f;
	for (size_t i = 0; i < n; i++) {
		float dx = x[i] - px, dy = y[i] - py, d = dx * dx + dy * dy;
		if (d < bd)
			bd = d, best = i;
	}
	return best;
}

size_t sphere_hits(size_t n, const struct vec3 *c, const float *r2, struct vec3 o, struct vec3 d) {
	size_t hits = 0;
	for (size_t i = 0; i < n; i++) {
		float lx = c[i].x - o.x, ly = c[i].y - o.y, lz = c[i].z - o.z;
		float t = lx * d.x + ly * d.y + lz * d.z;
		float q = lx * lx + ly * ly + lz * lz - t * t;
		hits += q <= r2[i] && t > 0;
	}
	return hits;
}

int aabb_overlap_count(size_t n, const float *lo, const float *hi, const float q[6]) {
	int c = 0;
	for (size_t i = 0; i < n; i++) {
		const float *l = lo + 3 * i, *h = hi + 3 * i;
		c += l[0] <= q[3] && h[0] >= q[0] && l[1] <= q[4] && h[1] >= q[1] && l[2] <= q[5] && h[2] >= q[2];
	}
	return c;
}

void tridiag_solve(size_t n, const double *a, const double *b, const double *c, double *d, double *cp) {
	cp[0] = c[0] / b[0];
	d[0] = d[0] / b[0];
	for (size_t i = 1; i < n; i++) {
		double m = 1.0 / (b[i] - a[i] * cp[i - 1]);
		cp[i] = c[i] * m;
		d[i] = (d[i] - a[i] * d[i - 1]) * m;
	}
	for (size_t i = n - 1; i-- > 0;)
		d[i] -= cp[i] * d[i + 1];
}

void lu_row_update(size_t n, double *restrict row, const double *restrict pivot, double f) {
	for (size_t j = 0; j < n; j++)
		row[j] -= f * pivot[j];
}

void mat_transpose_i32(size_t n, const int32_t *restrict a, int32_t *restrict t) {
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			t[j * n + i] = a[i * n + j];
}

void stencil_cross9(size_t w, size_t h, const float *restrict in, float *restrict out) {
	for (size_t y = 2; y + 2 < h; y++)
		for (size_t x = 2; x + 2 < w; x++) {
			const float *p = in + y * w + x;
			out[y * w + x] = 0.4f * p[0] + 0.1f * (p[-1] + p[1] + p[-w] + p[w]) +
			                 0.05f * (p[-2] + p[2] + p[-2 * w] + p[2 * w]);
		}
}

void stencil_diag5_i32(size_t w, size_t h, const int32_t *restrict in, int32_t *restrict out) {
	for (size_t y = 1; y + 1 < h; y++)
		for (size_t x = 1; x + 1 < w; x++) {
			const int32_t *p = in + y * w + x;
			out[y * w + x] = (4 * p[0] + p[-w - 1] + p[-w + 1] + p[w - 1] + p[w + 1]) >> 3;
		}
}

void upwind_1d(size_t n, const double *restrict u, double *restrict un, double c) {
	for (size_t i = 1; i < n; i++)
		un[i] = u[i] - c * (u[i] - u[i - 1]);
}

void wave_step(size_t n, const float *restrict prev, const float *restrict cur, float *restrict next, float c2) {
	for (size_t i = 1; i + 1 < n; i++)
		next[i] = 2 * cur[i] - prev[i] + c2 * (cur[i - 1] - 2 * cur[i] + cur[i + 1]);
}

void life_row(size_t w, const uint8_t *up, const uint8_t *mid, const uint8_t *dn, uint8_t *out) {
	for (size_t x = 1; x + 1 < w; x++) {
		int s = up[x - 1] + up[x] + up[x + 1] + mid[x - 1] + mid[x + 1] + dn[x - 1] + dn[x] + dn[x + 1];
		out[x] = s == 3 || (s == 2 && mid[x]);
	}
}

void particles_soa(size_t n, float *x, float *y, float *vx, float *vy, float dt, float g) {
	for (size_t i = 0; i < n; i++) {
		vy[i] -= g * dt;
		x[i] += vx[i] * dt;
		y[i] += vy[i] * dt;
		if (y[i] < 0) {
			y[i] = -y[i];
			vy[i] = -vy[i] * 0.9f;
		}
	}
}

void spring_forces(size_t n, const double *pos, double *force, double k, double rest) {
	for (size_t i = 0; i + 1 < n; i++) {
		double f = k * (pos[i + 1] - pos[i] - rest);
		force[i] += f;
		force[i + 1] -= f;
	}
}

double bilinear(size_t w, const float *img, float fx, float fy) {
	size_t x = (size_t)fx, y = (size_t)fy;
	float ax = fx - (float)x, ay = fy - (float)y;
	const float *p = img + y * w + x;
	return (1 - ay) * ((1 - ax) * p[0] + ax * p[1]) + ay * ((1 - ax) * p[w] + ax * p[w + 1]);
}

void lerp_colors(size_t n, const float *a, const float *b, const float *t, float *out) {
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < 3; c++)
			out[3 * i + c] = a[3 * i + c] + t[i] * (b[3 * i + c] - a[3 * i + c]);
}
