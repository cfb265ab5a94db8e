/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring status codes, returned by the pattern layer, the kernels, the algorithms and the transports. */
#ifndef HDRING_STATUS_H
#define HDRING_STATUS_H

/* Return codes of kernels, algorithms, transport operations and schedule runs. */
enum {
    HDRING_PENDING = 1,          /* not an error: a nonblocking run waits for messages (hdring_exec_run) */
    HDRING_OK = 0,
    HDRING_ERR_NOMEM = -1,       /* the pattern layer could not allocate its tables */
    HDRING_ERR_TRANSPORT = -2,   /* the transport failed; it keeps its own error */
    HDRING_ERR_UNSUPPORTED = -3, /* no such algorithm for this collective */
};

#endif
