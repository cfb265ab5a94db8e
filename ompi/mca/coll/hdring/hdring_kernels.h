/*
 * hdring kernels: one per communication pattern, written against hdring_transport.h.
 *
 * A kernel is one phase of a collective (a ring reduce-scatter, an RHD allgather, a fold, ...). The
 * collectives in hdring_algorithms.c are compositions of kernels. Each kernel states its preconditions on
 * the buffers, its scratch needs (in elements of TMP) and its cost: alpha per message, beta per byte moved,
 * gamma per byte reduced; n is the whole vector, p the number of ranks.
 */
#ifndef HDRING_KERNELS_H
#define HDRING_KERNELS_H

#include "hdring_pattern.h"
#include "hdring_transport.h"

/*
 * Ring reduce-scatter, vector form: on return acc holds block `rank` of the reduction of everybody's in.
 * The other blocks of acc hold partial sums (a later allgather overwrites them). in and acc may alias.
 *   step s (0 <= s < p-1): send block (r-s-1) mod p to r+1, receive block (r-s-2) mod p from r-1 into TMP,
 *   acc[block] = TMP (op) in[block]. Every block is reduced at p-1 ranks in ring order starting after its
 *   owner, so each element is reduced in one fixed order: results are deterministic. Operand order is that
 *   ring order, not rank order: commutative operations only.
 * TMP: the largest block. Cost: (p-1)(alpha + n/p beta + n/p gamma).
 * Trace p = 3, rank 0: s0 sends block 2 (own data), gets block 1 from 2 and adds its own; s1 sends block 1,
 *   gets block 0 (holding 1's and 2's data) and adds its own: block 0 complete.
 */
int hdring_ring_reduce_scatter_vector(const hdring_xport_t *x, const hdring_partition_t *blocks,
                                      hdring_buf_t in, hdring_buf_t acc);

/*
 * Ring reduce-scatter, block form: as above, but partial blocks live in TMP and block `rank` of the result is
 * written to dst, so no scratch of the vector's size is needed (reduce_scatter).
 * TMP: twice the largest block. Cost as above.
 */
int hdring_ring_reduce_scatter_block(const hdring_xport_t *x, const hdring_partition_t *blocks,
                                     hdring_buf_t in, hdring_loc_t dst);

/*
 * Ring allgather: on entry acc holds block `rank`; on return every block.
 *   step s: send block (r-s) mod p to r+1, receive block (r-s-1) mod p from r-1 into acc.
 * No scratch. Cost: (p-1)(alpha + n/p beta).
 */
int hdring_ring_allgather(const hdring_xport_t *x, const hdring_partition_t *blocks, hdring_buf_t acc);

#endif
