/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring hierarchical algorithms: the flat algorithms composed on the two kinds of sub-group of a communicator
 * spread over N nodes of L ranks each, MPI-free.
 *
 * Ranks are in locality order (hdring_topo.h): node j holds ranks jL .. jL+L-1, and rank jL+i has index i on its
 * node. A node group is the L ranks of one node; an index group is the N ranks with the same index, one per node.
 * Each phase is a flat algorithm (the registry's, chosen by the model and passed in a->phase) run on a view
 * (hdring_transport.h) of one group and a window of the buffers; nothing here sends a message itself.
 *
 * Restrictions: nodes of equal size (a->nodes * a->ppn == p); commutative operations only (the reductions run
 * in node order, not rank order); all ranks get the same bits, as every element is reduced in one place and
 * copied. The costs below are per node link (what limits them across nodes): n the whole vector, beta the
 * network's, and the phases within nodes at shared-memory speed.
 */
#include "hdring_algorithms.h"

static hdring_xport_t node_group(const hdring_xport_t *x, const hdring_args_t *a, hdring_view_t *v)
{
    return hdring_view(x, v, x->rank / a->ppn * a->ppn, 1, a->ppn, 0);
}

static hdring_xport_t index_group(const hdring_xport_t *x, const hdring_args_t *a, hdring_view_t *v)
{
    return hdring_view(x, v, x->rank % a->ppn, a->ppn, a->nodes, 0);
}

static bool is_grid(const hdring_xport_t *x, const hdring_args_t *a)
{
    return a->ppn >= 1 && a->nodes >= 1 && a->nodes * a->ppn == x->size;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

static hdring_scratch_t larger(hdring_scratch_t a, hdring_scratch_t b)
{
    hdring_scratch_t m = {max_size(a.tmp, b.tmp), max_size(a.work, b.work)};
    return m;
}

/* ---------------------------------------------------------------- allreduce */

/*
 * Hierarchical allreduce: the vector is cut into L slices; (1) each node reduce-scatters it, index i getting
 * slice i reduced over its node; (2) each index group allreduces its slice across the nodes, the L groups at
 * once; (3) each node allgathers the slices. Any N, L, count.
 * Cost: RS(L, n) + AR(N, n/L) with the link shared by L groups (beta L) + AG(L, n); per node link the phase
 *   across nodes moves 2(N-1)/N n with ring or rhd, the bandwidth minimum.
 * Trace N = 3, L = 2, ranks 0-1 | 2-3 | 4-5: (1) 0,1 and 2,3 and 4,5 each reduce-scatter halves: 0, 2, 4 hold the
 *   lower half of their node's sum; (2) 0, 2, 4 allreduce the lower half, 1, 3, 5 the upper; (3) each pair swaps.
 */
int hdring_run_allreduce_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t vn, vi;
    int rc;

    if (!is_grid(x, a)) {
        return HDRING_ERR_UNSUPPORTED;
    }
    const hdring_partition_t slices = hdring_partition_balanced(a->ppn, a->count);
    const int index = x->rank % a->ppn;
    const size_t at = hdring_part_offset(&slices, index), mine = hdring_part_count(&slices, index);
    const hdring_blocks_t blocks = {&slices, NULL, NULL};
    const hdring_args_t by_slice = {.blocks = &blocks};
    const hdring_args_t my_slice = {.count = mine};

    hdring_xport_t node = node_group(x, a, &vn);
    vn.buf[HDRING_BUF_OUT].off = at; /* (1) slice `index` lands at its place in OUT */
    rc = hdring_run(&node, a->phase[HDRING_PHASE_INTRA_FIRST], &by_slice);
    if (HDRING_OK == rc) {
        const hdring_xport_t across = index_group(x, a, &vi);
        vi.buf[HDRING_BUF_IN] = vi.buf[HDRING_BUF_OUT] = hdring_at(HDRING_BUF_OUT, at); /* (2) in place */
        rc = hdring_run(&across, a->phase[HDRING_PHASE_INTER], &my_slice);
    }
    if (HDRING_OK == rc) {
        vn.buf[HDRING_BUF_OUT].off = 0; /* (3) the whole vector */
        rc = hdring_run(&node, a->phase[HDRING_PHASE_INTRA_LAST], &by_slice);
    }
    return rc;
}

hdring_scratch_t hdring_scratch_allreduce_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t vn, vi;
    if (!is_grid(x, a)) {
        const hdring_scratch_t none = {0, 0};
        return none;
    }
    const hdring_partition_t slices = hdring_partition_balanced(a->ppn, a->count);
    const hdring_blocks_t blocks = {&slices, NULL, NULL};
    const hdring_args_t by_slice = {.blocks = &blocks};
    const hdring_args_t one_slice = {.count = hdring_partition_max_part(&slices)};
    const hdring_xport_t node = node_group(x, a, &vn), across = index_group(x, a, &vi);
    const hdring_scratch_t need = larger(hdring_scratch(&node, a->phase[HDRING_PHASE_INTRA_FIRST], &by_slice),
                                         hdring_scratch(&across, a->phase[HDRING_PHASE_INTER], &one_slice));
    return larger(need, hdring_scratch(&node, a->phase[HDRING_PHASE_INTRA_LAST], &by_slice));
}

/* ---------------------------------------------------------------- reduce_scatter and allgather */

/*
 * Both work on the vector in index-major order: the block of rank jL + i at position iN + j, so that slice i,
 * the N blocks of index group i, is contiguous. When blocks already lie that way (ranks mapped round-robin: rank
 * iN + j on node j) the vector is used where it is; otherwise it is copied into WORK, block by block.
 */
typedef struct grid_vector {
    hdring_partition_t parts;  /* the blocks in index-major order */
    hdring_partition_t slices; /* slice i: parts iN .. iN+N-1 */
    bool direct;               /* the blocks already lie in index-major order */
} grid_vector_t;

static int rank_at(const hdring_args_t *a, int h) { return h % a->nodes * a->ppn + h / a->nodes; }

/* Slice i as the N blocks of its index group. */
static hdring_partition_t slice_blocks(const hdring_args_t *a, const grid_vector_t *g, int i)
{
    return hdring_partition_sub(&g->parts, i * a->nodes, a->nodes);
}

/* Blocks of one size (reduce_scatter_block, allgather) make both partitions closed forms; otherwise their
 * boundaries take memory from x. */
static int grid_vector(const hdring_xport_t *x, const hdring_args_t *a, grid_vector_t *g)
{
    const int p = a->nodes * a->ppn;
    const size_t each = hdring_block_count(a->blocks, 0);
    bool equal = true;

    g->direct = true;
    for (int h = 0; h < p; ++h) {
        equal &= hdring_block_count(a->blocks, h) == each;
        g->direct &= hdring_block_of(a->blocks, rank_at(a, h)) == h;
    }
    if (equal) {
        g->parts = hdring_partition_uniform(p, each);
        g->slices = hdring_partition_uniform(a->ppn, (size_t) a->nodes * each);
        return HDRING_OK;
    }
    size_t *parts = hdring_take(x, (size_t) p + 1, sizeof(*parts));
    size_t *slices = hdring_take(x, (size_t) a->ppn + 1, sizeof(*slices));
    if (NULL == parts || NULL == slices) {
        return HDRING_ERR_NOMEM;
    }
    parts[0] = 0;
    for (int h = 0; h < p; ++h) {
        parts[h + 1] = parts[h] + hdring_block_count(a->blocks, rank_at(a, h));
    }
    for (int i = 0; i <= a->ppn; ++i) {
        slices[i] = parts[i * a->nodes];
    }
    g->parts = hdring_partition_of_displs(p, parts);
    g->slices = hdring_partition_of_displs(a->ppn, slices);
    return HDRING_OK;
}

/* Copies blocks between the vector in memory order (buffer mem) and index-major order (buffer grid): all of
 * them, or only rank `only`'s (only >= 0). */
static int regrid(const hdring_xport_t *x, const hdring_args_t *a, const grid_vector_t *g, hdring_buf_t mem,
                  hdring_buf_t grid, bool to_grid, int only)
{
    int rc = HDRING_OK;
    for (int h = 0; h < g->parts.nparts && HDRING_OK == rc; ++h) {
        const int r = rank_at(a, h);
        if (only >= 0 && r != only) {
            continue;
        }
        const hdring_loc_t m = hdring_at(mem, hdring_block_offset(a->blocks, r));
        const hdring_loc_t gr = hdring_at(grid, hdring_part_offset(&g->parts, h));
        rc = hdring_copy(x, to_grid ? m : gr, to_grid ? gr : m, hdring_part_count(&g->parts, h));
    }
    return rc;
}

/* The largest scratch the phase across nodes needs in any index group (each reduces or gathers its own slice). */
static hdring_scratch_t across_scratch(const hdring_xport_t *x, const hdring_args_t *a, const grid_vector_t *g)
{
    hdring_scratch_t need = {0, 0};
    hdring_view_t vi;
    const hdring_xport_t group = index_group(x, a, &vi);
    for (int i = 0; i < a->ppn; ++i) {
        const hdring_partition_t slice = slice_blocks(a, g, i);
        const hdring_blocks_t by_node = {&slice, NULL, NULL};
        const hdring_args_t across = {.blocks = &by_node};
        need = larger(need, hdring_scratch(&group, a->phase[HDRING_PHASE_INTER], &across));
    }
    return need;
}

/*
 * Hierarchical reduce_scatter: (1) each node reduce-scatters the vector by slices, index i getting slice i (the
 * blocks of index group i) reduced over its node, into WORK; (2) each index group reduce-scatters its slice
 * across the nodes, every rank getting its own block in OUT. Any N, L, block sizes and placement (blocks not in
 * index-major order are first copied into WORK).
 * Cost: copy (n, unless in index-major order) + RS(L, n) + RS(N, n/L) with the link shared by L groups; per node
 *   link (N-1)/N n, the bandwidth minimum.
 * Trace N = 3, L = 2, ranks 0-1 | 2-3 | 4-5 by slot: index-major order is blocks 0 2 4 | 1 3 5, copied into WORK;
 *   (1) 0 and 1 reduce-scatter it, 0 getting blocks 0 2 4 of their node's sum, 1 blocks 1 3 5, and so the other
 *   nodes; (2) 0, 2 and 4 reduce-scatter blocks 0 2 4: each gets its own; 1, 3 and 5 likewise.
 */
int hdring_run_reduce_scatter_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    grid_vector_t g;
    hdring_view_t vn, vi;
    int rc;

    if (!is_grid(x, a)) {
        return HDRING_ERR_UNSUPPORTED;
    }
    rc = grid_vector(x, a, &g);
    if (HDRING_OK != rc) {
        return rc;
    }
    const size_t total = hdring_partition_total(&g.parts), slice = hdring_partition_max_part(&g.slices);
    const size_t own = g.direct ? 0 : total; /* WORK: [grid copy][my slice][the phases' WORK] */
    const hdring_partition_t mine = slice_blocks(a, &g, x->rank % a->ppn);
    const hdring_blocks_t by_slice = {&g.slices, NULL, NULL}, by_node = {&mine, NULL, NULL};
    const hdring_args_t phase1 = {.blocks = &by_slice}, phase2 = {.blocks = &by_node};

    rc = g.direct ? HDRING_OK : regrid(x, a, &g, HDRING_BUF_IN, HDRING_BUF_WORK, true, -1);
    if (HDRING_OK == rc) {
        hdring_xport_t node = node_group(x, a, &vn);
        vn.buf[HDRING_BUF_IN] = g.direct ? hdring_at(HDRING_BUF_IN, 0) : hdring_at(HDRING_BUF_WORK, 0);
        vn.buf[HDRING_BUF_OUT] = hdring_at(HDRING_BUF_WORK, own);
        vn.buf[HDRING_BUF_WORK] = hdring_at(HDRING_BUF_WORK, own + slice);
        rc = hdring_run(&node, a->phase[HDRING_PHASE_INTRA_FIRST], &phase1);
    }
    if (HDRING_OK == rc) {
        hdring_xport_t across = index_group(x, a, &vi);
        vi.buf[HDRING_BUF_IN] = hdring_at(HDRING_BUF_WORK, own);
        vi.buf[HDRING_BUF_WORK] = hdring_at(HDRING_BUF_WORK, own + slice);
        rc = hdring_run(&across, a->phase[HDRING_PHASE_INTER], &phase2);
    }
    return rc;
}

hdring_scratch_t hdring_scratch_reduce_scatter_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_scratch_t need = {0, 0};
    grid_vector_t g;
    hdring_view_t vn;
    if (!is_grid(x, a) || HDRING_OK != grid_vector(x, a, &g)) {
        return need; /* the call itself reports it */
    }
    const hdring_blocks_t by_slice = {&g.slices, NULL, NULL};
    const hdring_args_t phase1 = {.blocks = &by_slice};
    const hdring_xport_t node = node_group(x, a, &vn);
    need = hdring_scratch(&node, a->phase[HDRING_PHASE_INTRA_FIRST], &phase1);
    need = larger(need, across_scratch(x, a, &g));
    need.work += (g.direct ? 0 : hdring_partition_total(&g.parts)) + hdring_partition_max_part(&g.slices);
    return need;
}

/*
 * Hierarchical allgather: (1) each index group allgathers its blocks across the nodes, the L groups at once,
 * rank jL + i getting slice i; (2) each node allgathers its L slices. Any N, L, block sizes and placement (blocks
 * not in index-major order are gathered in WORK and copied to OUT at the end).
 * Cost: AG(N, n/L) with the link shared by L groups + AG(L, n) + copy (n, unless in index-major order); per node
 *   link (N-1)/N n, the bandwidth minimum.
 * Trace N = 3, L = 2, ranks mapped round-robin (nodes 0 3 | 1 4 | 2 5, so blocks in rank order are index-major):
 *   (1) 0, 1 and 2 (index 0 on each node) allgather blocks 0 1 2, and 3, 4, 5 blocks 3 4 5; (2) 0 and 3 swap
 *   slices {0,1,2} and {3,4,5}, and so 1 and 4, 2 and 5.
 */
int hdring_run_allgather_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    grid_vector_t g;
    hdring_view_t vn, vi;
    int rc;

    if (!is_grid(x, a)) {
        return HDRING_ERR_UNSUPPORTED;
    }
    const int index = x->rank % a->ppn;
    rc = grid_vector(x, a, &g);
    if (HDRING_OK != rc) {
        return rc;
    }
    const hdring_buf_t grid = g.direct ? HDRING_BUF_OUT : HDRING_BUF_WORK;
    const hdring_partition_t mine = slice_blocks(a, &g, index);
    const hdring_blocks_t by_node = {&mine, NULL, NULL}, by_slice = {&g.slices, NULL, NULL};
    const hdring_args_t phase1 = {.blocks = &by_node}, phase2 = {.blocks = &by_slice};

    rc = g.direct ? HDRING_OK : regrid(x, a, &g, HDRING_BUF_OUT, HDRING_BUF_WORK, true, x->rank);
    if (HDRING_OK == rc) {
        hdring_xport_t across = index_group(x, a, &vi);
        vi.buf[HDRING_BUF_OUT] = hdring_at(grid, hdring_part_offset(&g.slices, index));
        vi.buf[HDRING_BUF_WORK] = hdring_at(HDRING_BUF_WORK, hdring_partition_total(&g.parts));
        rc = hdring_run(&across, a->phase[HDRING_PHASE_INTER], &phase1);
    }
    if (HDRING_OK == rc) {
        hdring_xport_t node = node_group(x, a, &vn);
        vn.buf[HDRING_BUF_OUT] = hdring_at(grid, 0);
        vn.buf[HDRING_BUF_WORK] = hdring_at(HDRING_BUF_WORK, hdring_partition_total(&g.parts));
        rc = hdring_run(&node, a->phase[HDRING_PHASE_INTRA_LAST], &phase2);
    }
    if (HDRING_OK == rc && !g.direct) {
        rc = regrid(x, a, &g, HDRING_BUF_OUT, HDRING_BUF_WORK, false, -1);
    }
    return rc;
}

hdring_scratch_t hdring_scratch_allgather_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_scratch_t need = {0, 0};
    grid_vector_t g;
    hdring_view_t vn;
    if (!is_grid(x, a) || HDRING_OK != grid_vector(x, a, &g)) {
        return need; /* the call itself reports it */
    }
    const hdring_blocks_t by_slice = {&g.slices, NULL, NULL};
    const hdring_args_t phase2 = {.blocks = &by_slice};
    const hdring_xport_t node = node_group(x, a, &vn);
    need = hdring_scratch(&node, a->phase[HDRING_PHASE_INTRA_LAST], &phase2);
    need = larger(need, across_scratch(x, a, &g));
    need.work += g.direct ? 0 : hdring_partition_total(&g.parts);
    return need;
}

/* ---------------------------------------------------------------- bcast */

/*
 * Hierarchical bcast: (1) the index group of the root broadcasts the message across the nodes; (2) every node
 * broadcasts it from that rank to the others. Any N, L, root, count.
 * Cost: BC(N, n) on the network (one flow per link) + BC(L, n) within the nodes.
 * Trace N = 3, L = 2, root 3 (node 1, index 1): (1) 3 broadcasts to 1 and 5; (2) 1 to 0, 3 to 2, 5 to 4.
 */
int hdring_run_bcast_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t vn, vi;
    int rc = HDRING_OK;

    if (!is_grid(x, a)) {
        return HDRING_ERR_UNSUPPORTED;
    }
    const int root_node = a->root / a->ppn, root_index = a->root % a->ppn;
    hdring_args_t phase = *a;
    if (x->rank % a->ppn == root_index) {
        const hdring_xport_t across = index_group(x, a, &vi);
        phase.root = root_node;
        rc = hdring_run(&across, a->phase[HDRING_PHASE_INTER], &phase);
    }
    if (HDRING_OK == rc) {
        const hdring_xport_t node = node_group(x, a, &vn);
        phase.root = root_index;
        rc = hdring_run(&node, a->phase[HDRING_PHASE_INTRA_LAST], &phase);
    }
    return rc;
}

hdring_scratch_t hdring_scratch_bcast_hier(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t vn, vi;
    if (!is_grid(x, a)) {
        const hdring_scratch_t none = {0, 0};
        return none;
    }
    const hdring_xport_t node = node_group(x, a, &vn), across = index_group(x, a, &vi);
    return larger(hdring_scratch(&across, a->phase[HDRING_PHASE_INTER], a),
                  hdring_scratch(&node, a->phase[HDRING_PHASE_INTRA_LAST], a));
}
