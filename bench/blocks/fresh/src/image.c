/* Image-processing loops, written for the fresh evaluation corpus after the
 * simulator's machine description was tuned: none of these was seen then. */
#include <stddef.h>
#include <stdint.h>

void rgb_to_gray(size_t n, const uint8_t *restrict rgb, uint8_t *restrict gray) {
	for (size_t i = 0; i < n; i++) {
		unsigned r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
		gray[i] = (uint8_t)((77 * r + 150 * g + 29 * b) >> 8);
	}
}

void histogram(size_t n, const uint8_t *restrict p, uint32_t hist[restrict 256]) {
	for (size_t i = 0; i < n; i++)
		hist[p[i]]++;
}

void threshold(size_t n, const uint8_t *restrict in, uint8_t *restrict out, uint8_t t) {
	for (size_t i = 0; i < n; i++)
		out[i] = in[i] > t ? 255 : 0;
}

void alpha_blend(size_t n, const uint8_t *restrict a, const uint8_t *restrict b, uint8_t alpha, uint8_t *restrict out) {
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)((a[i] * alpha + b[i] * (255 - alpha) + 127) / 255);
}

void box3(size_t w, size_t h, const float *restrict in, float *restrict out) {
	for (size_t y = 1; y + 1 < h; y++)
		for (size_t x = 1; x + 1 < w; x++) {
			float s = 0;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++)
					s += in[(y + dy) * w + x + dx];
			out[y * w + x] = s * (1.0f / 9);
		}
}

void sobel_x(size_t w, size_t h, const int16_t *restrict in, int16_t *restrict out) {
	for (size_t y = 1; y + 1 < h; y++)
		for (size_t x = 1; x + 1 < w; x++) {
			const int16_t *p = in + y * w + x;
			int gx = -p[-w - 1] + p[-w + 1] - 2 * p[-1] + 2 * p[1] - p[w - 1] + p[w + 1];
			out[y * w + x] = (int16_t)(gx < 0 ? -gx : gx);
		}
}

void downsample2(size_t w, size_t h, const uint8_t *restrict in, uint8_t *restrict out) {
	for (size_t y = 0; y < h / 2; y++)
		for (size_t x = 0; x < w / 2; x++) {
			unsigned s = in[2 * y * w + 2 * x] + in[2 * y * w + 2 * x + 1] + in[(2 * y + 1) * w + 2 * x] +
				     in[(2 * y + 1) * w + 2 * x + 1];
			out[y * (w / 2) + x] = (uint8_t)((s + 2) >> 2);
		}
}

void gamma_lut(size_t n, const uint8_t lut[restrict 256], uint8_t *restrict p) {
	for (size_t i = 0; i < n; i++)
		p[i] = lut[p[i]];
}

float mean_abs_diff(size_t n, const float *restrict a, const float *restrict b) {
	float s = 0;
	for (size_t i = 0; i < n; i++) {
		float d = a[i] - b[i];
		s += d < 0 ? -d : d;
	}
	return s / (float)n;
}

void clamp_f32(size_t n, float *p, float lo, float hi) {
	for (size_t i = 0; i < n; i++)
		p[i] = p[i] < lo ? lo : p[i] > hi ? hi : p[i];
}

void integral_image(size_t w, size_t h, const uint8_t *restrict in, uint32_t *restrict out) {
	for (size_t y = 0; y < h; y++) {
		uint32_t row = 0;
		for (size_t x = 0; x < w; x++) {
			row += in[y * w + x];
			out[y * w + x] = row + (y ? out[(y - 1) * w + x] : 0);
		}
	}
}
