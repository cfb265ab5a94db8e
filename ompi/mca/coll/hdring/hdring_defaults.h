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

/* The largest message ob1 sends eagerly over a BTL of that eager limit (btl_<btl>_eager_limit). */
static inline double hdring_pml_eager_bytes(unsigned long btl_eager_limit)
{
    return btl_eager_limit > HDRING_PML_EAGER_HEADER_BYTES ? (double) (btl_eager_limit - HDRING_PML_EAGER_HEADER_BYTES)
                                                           : 0;
}

#endif
