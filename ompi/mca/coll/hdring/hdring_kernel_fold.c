/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Fold and unfold kernels: see hdring_kernels.h. */
#include "hdring_kernels.h"

int hdring_fold_split(const hdring_xport_t *x, const hdring_fold_t *f, size_t count, hdring_buf_t in,
                      hdring_buf_t acc)
{
    const int r = x->rank;
    const size_t lower = count / 2, upper = count - lower; /* [0, lower) and [lower, count) */
    int rc;

    switch (hdring_fold_role(f, r)) {
    case HDRING_FOLD_DROPPED: /* keeps the lower half: x_r (op) x_r+1, own operand on the left */
        rc = hdring_sendrecv(x, hdring_msg(r + 1, hdring_at(in, lower), upper),
                             hdring_msg(r + 1, hdring_at(HDRING_BUF_TMP, 0), lower));
        if (HDRING_OK == rc) {
            rc = hdring_reduce(x, hdring_at(in, 0), hdring_at(HDRING_BUF_TMP, 0), hdring_at(acc, 0), lower);
        }
        if (HDRING_OK == rc) {
            rc = hdring_send(x, hdring_msg(r + 1, hdring_at(acc, 0), lower));
        }
        return rc;
    case HDRING_FOLD_KEEPER: /* reduces the upper half, then receives the partner's lower half */
        rc = hdring_sendrecv(x, hdring_msg(r - 1, hdring_at(in, 0), lower),
                             hdring_msg(r - 1, hdring_at(HDRING_BUF_TMP, 0), upper));
        if (HDRING_OK == rc) {
            rc = hdring_reduce(x, hdring_at(HDRING_BUF_TMP, 0), hdring_at(in, lower), hdring_at(acc, lower), upper);
        }
        if (HDRING_OK == rc) {
            rc = hdring_recv(x, hdring_msg(r - 1, hdring_at(acc, 0), lower));
        }
        return rc;
    default:
        return HDRING_OK;
    }
}

int hdring_fold_whole(const hdring_xport_t *x, const hdring_fold_t *f, size_t count, hdring_buf_t in,
                      hdring_buf_t acc)
{
    const int r = x->rank;
    int rc;

    switch (hdring_fold_role(f, r)) {
    case HDRING_FOLD_DROPPED:
        return hdring_send(x, hdring_msg(r + 1, hdring_at(in, 0), count));
    case HDRING_FOLD_KEEPER:
        rc = hdring_recv(x, hdring_msg(r - 1, hdring_at(HDRING_BUF_TMP, 0), count));
        return HDRING_OK == rc
                   ? hdring_reduce(x, hdring_at(HDRING_BUF_TMP, 0), hdring_at(in, 0), hdring_at(acc, 0), count)
                   : rc;
    default:
        return HDRING_OK;
    }
}

int hdring_unfold(const hdring_xport_t *x, const hdring_fold_t *f, hdring_loc_t at, size_t count)
{
    const int r = x->rank;

    switch (hdring_fold_role(f, r)) {
    case HDRING_FOLD_DROPPED:
        return hdring_recv(x, hdring_msg(r + 1, at, count));
    case HDRING_FOLD_KEEPER:
        return hdring_send(x, hdring_msg(r - 1, at, count));
    default:
        return HDRING_OK;
    }
}
