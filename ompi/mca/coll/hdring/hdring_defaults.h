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
/* Open MPI 4.1's ob1 sends eagerly up to the BTL's eager limit less its 56-byte header: 4 KiB over shared memory
 * (btl_vader_eager_limit), 64 KiB over TCP (btl_tcp_eager_limit) by default. The component follows the BTLs'
 * values when these parameters are left unset; hdring_model assumes the defaults. */
#define HDRING_DEFAULT_EAGER_BYTES 4040.0
#define HDRING_DEFAULT_NETWORK_EAGER_BYTES 65480.0

#endif
