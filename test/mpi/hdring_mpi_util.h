/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Helpers shared by the MPI test programs: MPI_T control of hdring's parameters and bookkeeping that uses
 * only point-to-point messages, never the collectives under test.
 */
#ifndef HDRING_MPI_UTIL_H
#define HDRING_MPI_UTIL_H

#include <mpi.h>
#include <stdbool.h>

/* Ends a program over its command line: with why NULL (--help) rank 0 prints the usage on stdout and every
 * rank exits 0; otherwise rank 0 prints why and the usage on stderr and the job aborts with status 2. */
void util_usage_exit(const char *program, const char *usage, const char *why);

/* Write an MCA variable through MPI_T: an enum by name ("ring"), an integer ("-1") or a double. Returns 0 on success,
 * 1 if the variable does not exist (hdring not loaded), -1 on any other error (printed). */
int util_cvar_write(const char *name, const char *value);

/* The names of an enum MCA variable's values other than "auto", comma separated, into out (len bytes), in the
 * enum's order. Returns 0 on success, 1 if the variable does not exist, -1 on error. */
int util_cvar_enum_names(const char *name, char *out, size_t len);

/* Read an integer (a double, a size: unsigned long) MCA variable through MPI_T. Returns 0 on success, 1 if it
 * does not exist, -1 on error. */
int util_cvar_read_int(const char *name, int *value);
int util_cvar_read_double(const char *name, double *value);
int util_cvar_read_ulong(const char *name, unsigned long *value);

/* The MPI collectives hdring serves, as its MCA parameters name them (coll_hdring_<name>_algorithm). */
#define UTIL_NCOLLS 5
extern const char *const util_coll_names[UTIL_NCOLLS];

/* Whether name is one of the comma-separated items of list. */
bool util_listed(const char *list, const char *name);

/* Sum of v over comm, delivered to every rank (point-to-point only). */
long util_sum(MPI_Comm comm, long v);

/* True on every rank if all ranks passed the same 64-bit value (point-to-point only). */
bool util_all_equal(MPI_Comm comm, unsigned long long v);

/* Calls per timing sample, so that a sample lasts at least sample_s: batches timed by timed(ctx, calls) (seconds
 * per call, alike on every rank) double until one lasts a tenth of sample_s, then the count grows to fill it; at
 * most max_calls. A few calls alone would weigh the first calls' warm-up (caches, branch history), and a call of
 * 0.2 us needs 25000 to fill 5 ms. */
int util_calls_per_sample(double (*timed)(void *ctx, int calls), void *ctx, double sample_s, int max_calls);

/* FNV-1a hash of a byte range. */
unsigned long long util_hash(const void *buf, size_t bytes);

#endif
