/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring defaults of the cost model's parameters, in the units of the MCA parameters (microseconds, MB/s):
 * shared by the component (coll_hdring_model_*) and hdring_model, so the tool predicts what the component
 * chooses.
 *
 * Node-local values were fitted to every algorithm measured side by side on the development machine (2 cores,
 * shared memory, 2 to 8 ranks; perf/fit). Network values describe a 10 Gbit/s class network: a guess,
 * not a measurement; measure yours.
 */
#ifndef HDRING_DEFAULTS_H
#define HDRING_DEFAULTS_H

#define HDRING_DEFAULT_LATENCY_US 10.0
#define HDRING_DEFAULT_BANDWIDTH_MBS 10000.0
#define HDRING_DEFAULT_NETWORK_LATENCY_US 20.0
#define HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS 1250.0
#define HDRING_DEFAULT_REDUCE_MBS 10000.0
/* ob1 sends a message eagerly when it fits in the BTL's eager limit less the size of its header union
 * (mca_pml_ob1_hdr_t, whose largest member is the rendezvous-get header): on 64-bit machines 56 bytes in Open MPI
 * 4.1 and 80 in 5.0, as hdring_eager measures over shared memory and TCP (test/mpi); the component takes its
 * series' (coll_hdring_ompi.h). The eager limits are 4 KiB over shared memory (btl_vader_eager_limit, 5.0:
 * btl_sm_eager_limit) and 64 KiB over TCP (btl_tcp_eager_limit) by default. The component follows the BTLs'
 * values when these parameters are left unset; hdring_model and the defaults here assume 4.1's. */
#define HDRING_PML_EAGER_HEADER_BYTES_4_1 56
#define HDRING_PML_EAGER_HEADER_BYTES_5_0 80
#define HDRING_SM_EAGER_LIMIT 4096.0
#define HDRING_TCP_EAGER_LIMIT 65536.0
#define HDRING_DEFAULT_EAGER_BYTES (HDRING_SM_EAGER_LIMIT - HDRING_PML_EAGER_HEADER_BYTES_4_1)
#define HDRING_DEFAULT_NETWORK_EAGER_BYTES (HDRING_TCP_EAGER_LIMIT - HDRING_PML_EAGER_HEADER_BYTES_4_1)

/* ob1 sends a message of at most 256 bytes inline (mca_pml_ob1_send_inline: a fixed limit, whatever the BTL's
 * max_inline_send): copied into the BTL at once, without a send request. On a node with more ranks than cores,
 * where a waiting process yields its core, a larger one is 2-3x slower (a ring step at 3 ranks on 2 cores: 3 us
 * with 250-B blocks, 8-9 us with 260-B ones), and up to HDRING_DEFAULT_INLINE_PIECES_BYTES goes faster as pieces of
 * at most 256 bytes; from 1.5 KiB the pieces' own costs outweigh the request they save (HOW-IT-WORKS.md,
 * Messages in pieces). */
#define HDRING_PML_INLINE_BYTES 256
#define HDRING_DEFAULT_INLINE_PIECES_BYTES 1024
#define HDRING_MAX_PIECES 8 /* pieces of one message: coll_hdring_inline_pieces_bytes is at most 2048 */

/* The largest message ob1 sends eagerly over a BTL of that eager limit (btl_<btl>_eager_limit), with a header of
 * header_bytes (HDRING_PML_EAGER_HEADER_BYTES_*). */
static inline double hdring_pml_eager_bytes(unsigned long btl_eager_limit, unsigned header_bytes)
{
    return btl_eager_limit > header_bytes ? (double) (btl_eager_limit - header_bytes) : 0;
}

#endif
