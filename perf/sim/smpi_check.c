/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* The driver's --check: see smpi_check.h. */
#include "smpi_check.h"

#include <string.h>

/* Rank s's input element i: small integers, so any order of summing p of them gives the same float. */
static float value(int s, size_t i) { return (float) (((size_t) s * 7 + i * 3) % 17); }

static float sum_over_ranks(int p, size_t i)
{
    float sum = 0;
    for (int s = 0; s < p; ++s) {
        sum += value(s, i);
    }
    return sum;
}

static unsigned char block_byte(int s, size_t j) { return (unsigned char) (s * 31 + (int) (j * 7) + 1); }

static unsigned char message_byte(size_t i) { return (unsigned char) (i * 13 + 5); }

void smpi_check_fill(smpi_case_t *c)
{
    const int rank = c->w->rank;
    switch (c->coll) {
    case SMPI_ALLGATHER:
        for (size_t j = 0; j < c->count; ++j) {
            ((unsigned char *) c->in)[j] = block_byte(rank, j);
        }
        memset(c->out, 0, c->actual);
        break;
    case SMPI_BCAST:
        for (size_t i = 0; i < c->count; ++i) {
            ((unsigned char *) c->out)[i] = 0 == rank ? message_byte(i) : 0;
        }
        break;
    default: {
        const size_t n = c->actual / sizeof(float);
        for (size_t i = 0; i < n; ++i) {
            ((float *) c->in)[i] = value(rank, i);
        }
        const size_t out = SMPI_ALLREDUCE == c->coll              ? n
                           : SMPI_REDUCE_SCATTER_BLOCK == c->coll ? c->count
                                                                  : (size_t) c->rcounts[rank];
        memset(c->out, 0, out * sizeof(float));
        break;
    }
    }
}

/* Whether out[0 .. n) holds the sums of elements first .. first + n. */
static int sums_right(const smpi_case_t *c, size_t first, size_t n)
{
    const float *out = (const float *) c->out;
    for (size_t j = 0; j < n; ++j) {
        if (out[j] != sum_over_ranks(c->w->p, first + j)) {
            return 0;
        }
    }
    return 1;
}

int smpi_check_verify(const smpi_case_t *c)
{
    const int rank = c->w->rank;
    const unsigned char *out = (const unsigned char *) c->out;
    switch (c->coll) {
    case SMPI_ALLREDUCE:
        return sums_right(c, 0, c->count);
    case SMPI_REDUCE_SCATTER_BLOCK:
        return sums_right(c, (size_t) rank * c->count, c->count);
    case SMPI_REDUCE_SCATTER:
        return sums_right(c, c->displ[rank], (size_t) c->rcounts[rank]);
    case SMPI_ALLGATHER:
        for (int s = 0; s < c->w->p; ++s) {
            for (size_t j = 0; j < c->count; ++j) {
                if (out[(size_t) s * c->count + j] != block_byte(s, j)) {
                    return 0;
                }
            }
        }
        return 1;
    default:
        for (size_t i = 0; i < c->count; ++i) {
            if (out[i] != message_byte(i)) {
                return 0;
            }
        }
        return 1;
    }
}
