/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring defaults of the cost model's parameters, in the units of the MCA parameters (microseconds, MB/s):
 * shared by the component (coll_hdring_model_*) and hdring_model, so the tool predicts what the component
 * chooses.
 *
 * Node-local values were fitted to every algorithm measured side by side on the development machine (2 cores,
 * shared memory, 2 to 8 ranks; README.md, Tuning). Network values describe a 10 Gbit/s class network: a guess,
 * not a measurement; measure yours.
 */
#ifndef HDRING_DEFAULTS_H
#define HDRING_DEFAULTS_H

#define HDRING_DEFAULT_LATENCY_US 10.0
#define HDRING_DEFAULT_BANDWIDTH_MBS 10000.0
#define HDRING_DEFAULT_NETWORK_LATENCY_US 20.0
#define HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS 1250.0
#define HDRING_DEFAULT_REDUCE_MBS 10000.0
/* Open MPI 4.1's ob1 sends a message eagerly when it fits in the BTL's eager limit less the size of its header
 * union (mca_pml_ob1_hdr_t, whose largest member is the rendezvous-get header): 56 bytes on 64-bit machines, as
 * hdring_eager measures over vader and TCP (test/mpi). The eager limits are 4 KiB over shared memory
 * (btl_vader_eager_limit) and 64 KiB over TCP (btl_tcp_eager_limit) by default. The component follows the BTLs'
 * values when these parameters are left unset; hdring_model assumes the defaults. */
#define HDRING_PML_EAGER_HEADER_BYTES 56
#define HDRING_DEFAULT_EAGER_BYTES (4096.0 - HDRING_PML_EAGER_HEADER_BYTES)
#define HDRING_DEFAULT_NETWORK_EAGER_BYTES (65536.0 - HDRING_PML_EAGER_HEADER_BYTES)

/* ob1 sends a message of at most 256 bytes inline (mca_pml_ob1_send_inline: a fixed limit, whatever the BTL's
 * max_inline_send): copied into the BTL at once, without a send request. On a node with more ranks than cores,
 * where a waiting process yields its core, a larger one is 2-3x slower (a ring step at 3 ranks on 2 cores: 3 us
 * with 250-B blocks, 8-9 us with 260-B ones), and up to HDRING_DEFAULT_INLINE_PIECES_BYTES goes faster as pieces of
 * at most 256 bytes; from 1.5 KiB the pieces' own costs outweigh the request they save (README.md, Tuning). */
#define HDRING_PML_INLINE_BYTES 256
#define HDRING_DEFAULT_INLINE_PIECES_BYTES 1024
#define HDRING_MAX_PIECES 8 /* pieces of one message: coll_hdring_inline_pieces_bytes is at most 2048 */

/* The largest message ob1 sends eagerly over a BTL of that eager limit (btl_<btl>_eager_limit). */
static inline double hdring_pml_eager_bytes(unsigned long btl_eager_limit)
{
    return btl_eager_limit > HDRING_PML_EAGER_HEADER_BYTES ? (double) (btl_eager_limit - HDRING_PML_EAGER_HEADER_BYTES)
                                                           : 0;
}

#endif
