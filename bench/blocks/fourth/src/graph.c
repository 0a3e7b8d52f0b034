/* Graph algorithms over adjacency arrays (compressed sparse rows):
 * breadth-first search, union-find, Dijkstra with an indexed heap,
 * topological order, Bellman-Ford, Floyd-Warshall, bipartiteness,
 * PageRank, triangle counting. Written for an evaluation corpus that no
 * machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

struct csr {
	uint32_t n;
	const uint32_t *off; /* n+1 entries */
	const uint32_t *adj;
	const int32_t *w;
};

uint32_t bfs(const struct csr *g, uint32_t src, int32_t *dist, uint32_t *queue) {
	for (uint32_t v = 0; v < g->n; v++)
		dist[v] = -1;
	uint32_t head = 0, tail = 0;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t u = queue[head++];
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->adj[e];
			if (dist[v] < 0) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	return tail;
}

/* Direction-optimising bottom-up step: every unvisited vertex looks for a
 * parent in the frontier bitmap. */
uint32_t bfs_bottom_up_step(const struct csr *g, const uint64_t *frontier, uint64_t *next, int32_t *parent) {
	uint32_t found = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		if (parent[v] >= 0)
			continue;
		for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t u = g->adj[e];
			if (frontier[u >> 6] >> (u & 63) & 1) {
				parent[v] = (int32_t)u;
				next[v >> 6] |= 1ull << (v & 63);
				found++;
				break;
			}
		}
	}
	return found;
}

uint32_t uf_find(uint32_t *parent, uint32_t x) {
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

int uf_union(uint32_t *parent, uint8_t *rank, uint32_t a, uint32_t b) {
	a = uf_find(parent, a);
	b = uf_find(parent, b);
	if (a == b)
		return 0;
	if (rank[a] < rank[b]) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	parent[b] = a;
	if (rank[a] == rank[b])
		rank[a]++;
	return 1;
}

uint32_t count_components(uint32_t n, size_t m, const uint32_t (*edges)[2], uint32_t *parent, uint8_t *rank) {
	for (uint32_t i = 0; i < n; i++) {
		parent[i] = i;
		rank[i] = 0;
	}
	uint32_t comps = n;
	for (size_t i = 0; i < m; i++)
		comps -= (uint32_t)uf_union(parent, rank, edges[i][0], edges[i][1]);
	return comps;
}

struct heap {
	uint32_t n;
	uint32_t *item; /* heap order */
	uint32_t *pos;  /* item -> index */
	int64_t *key;
};

static void heap_swap(struct heap *h, uint32_t i, uint32_t j) {
	uint32_t a = h->item[i], b = h->item[j];
	h->item[i] = b;
	h->item[j] = a;
	h->pos[b] = i;
	h->pos[a] = j;
}

void heap_up(struct heap *h, uint32_t i) {
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (h->key[h->item[p]] <= h->key[h->item[i]])
			break;
		heap_swap(h, i, p);
		i = p;
	}
}

void heap_down(struct heap *h, uint32_t i) {
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && h->key[h->item[l]] < h->key[h->item[m]])
			m = l;
		if (r < h->n && h->key[h->item[r]] < h->key[h->item[m]])
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

void dijkstra(const struct csr *g, uint32_t src, int64_t *dist, uint32_t *item, uint32_t *pos) {
	struct heap h = {0, item, pos, dist};
	for (uint32_t v = 0; v < g->n; v++) {
		dist[v] = INT64_MAX;
		pos[v] = UINT32_MAX;
	}
	dist[src] = 0;
	item[0] = src;
	pos[src] = 0;
	h.n = 1;
	while (h.n) {
		uint32_t u = item[0];
		heap_swap(&h, 0, --h.n);
		pos[u] = UINT32_MAX - 1;
		heap_down(&h, 0);
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->adj[e];
			int64_t nd = dist[u] + g->w[e];
			if (nd < dist[v] && pos[v] != UINT32_MAX - 1) {
				dist[v] = nd;
				if (pos[v] == UINT32_MAX) {
					item[h.n] = v;
					pos[v] = h.n++;
				}
				heap_up(&h, pos[v]);
			}
		}
	}
}

int topo_sort(const struct csr *g, uint32_t *indeg, uint32_t *order) {
	for (uint32_t v = 0; v < g->n; v++)
		indeg[v] = 0;
	for (uint32_t e = 0; e < g->off[g->n]; e++)
		indeg[g->adj[e]]++;
	uint32_t head = 0, tail = 0;
	for (uint32_t v = 0; v < g->n; v++)
		if (indeg[v] == 0)
			order[tail++] = v;
	while (head < tail) {
		uint32_t u = order[head++];
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			if (--indeg[g->adj[e]] == 0)
				order[tail++] = g->adj[e];
	}
	return tail == g->n;
}

struct edge {
	uint32_t from, to;
	int32_t w;
};

int bellman_ford(uint32_t n, size_t m, const struct edge *e, int64_t *dist) {
	for (uint32_t round = 0; round < n; round++) {
		int changed = 0;
		for (size_t i = 0; i < m; i++) {
			int64_t d = dist[e[i].from];
			if (d == INT64_MAX)
				continue;
			if (d + e[i].w < dist[e[i].to]) {
				dist[e[i].to] = d + e[i].w;
				changed = 1;
			}
		}
		if (!changed)
			return 1;
	}
	return 0;
}

void floyd_warshall(uint32_t n, int32_t *d) {
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t i = 0; i < n; i++) {
			int32_t dik = d[i * n + k];
			if (dik == INT32_MAX)
				continue;
			for (uint32_t j = 0; j < n; j++) {
				int32_t dkj = d[k * n + j];
				if (dkj != INT32_MAX && dik + dkj < d[i * n + j])
					d[i * n + j] = dik + dkj;
			}
		}
}

int is_bipartite(const struct csr *g, int8_t *color, uint32_t *queue) {
	for (uint32_t v = 0; v < g->n; v++)
		color[v] = -1;
	for (uint32_t s = 0; s < g->n; s++) {
		if (color[s] >= 0)
			continue;
		uint32_t head = 0, tail = 0;
		color[s] = 0;
		queue[tail++] = s;
		while (head < tail) {
			uint32_t u = queue[head++];
			for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
				uint32_t v = g->adj[e];
				if (color[v] < 0) {
					color[v] = (int8_t)(1 - color[u]);
					queue[tail++] = v;
				} else if (color[v] == color[u]) {
					return 0;
				}
			}
		}
	}
	return 1;
}

void pagerank_step(const struct csr *g, const float *rank, const uint32_t *outdeg, float *next, float damping) {
	float base = (1.0f - damping) / (float)g->n;
	for (uint32_t v = 0; v < g->n; v++) {
		float s = 0.0f;
		for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t u = g->adj[e];
			s += rank[u] / (float)outdeg[u];
		}
		next[v] = base + damping * s;
	}
}

/* Triangles in an undirected graph whose adjacency lists are sorted. */
uint64_t count_triangles(const struct csr *g) {
	uint64_t t = 0;
	for (uint32_t u = 0; u < g->n; u++)
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t v = g->adj[e];
			if (v <= u)
				continue;
			uint32_t i = g->off[u], j = g->off[v];
			while (i < g->off[u + 1] && j < g->off[v + 1]) {
				uint32_t a = g->adj[i], b = g->adj[j];
				if (a == b) {
					t += a > v;
					i++;
					j++;
				} else if (a < b) {
					i++;
				} else {
					j++;
				}
			}
		}
	return t;
}

void degrees(const struct csr *g, uint32_t *out, uint32_t *max) {
	uint32_t m = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		uint32_t d = g->off[v + 1] - g->off[v];
		out[v] = d;
		m = d > m ? d : m;
	}
	*max = m;
}

/* Builds CSR offsets and adjacency from an edge list (counting sort). */
void build_csr(uint32_t n, size_t m, const uint32_t (*edges)[2], uint32_t *off, uint32_t *adj, uint32_t *fill) {
	for (uint32_t v = 0; v <= n; v++)
		off[v] = 0;
	for (size_t i = 0; i < m; i++)
		off[edges[i][0] + 1]++;
	for (uint32_t v = 0; v < n; v++) {
		off[v + 1] += off[v];
		fill[v] = off[v];
	}
	for (size_t i = 0; i < m; i++)
		adj[fill[edges[i][0]]++] = edges[i][1];
}

uint32_t greedy_coloring(const struct csr *g, uint32_t *color, uint8_t *used) {
	uint32_t ncolors = 0;
	for (uint32_t v = 0; v < g->n; v++)
		color[v] = UINT32_MAX;
	for (uint32_t v = 0; v < g->n; v++) {
		for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t c = color[g->adj[e]];
			if (c != UINT32_MAX)
				used[c] = 1;
		}
		uint32_t c = 0;
		while (used[c])
			c++;
		color[v] = c;
		if (c + 1 > ncolors)
			ncolors = c + 1;
		for (uint32_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t d = color[g->adj[e]];
			if (d != UINT32_MAX)
				used[d] = 0;
		}
	}
	return ncolors;
}
