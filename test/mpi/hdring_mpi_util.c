/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Helpers shared by the MPI test programs: see hdring_mpi_util.h. */
#include "hdring_mpi_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UTIL_TAG 4711

const char *const util_coll_names[UTIL_NCOLLS] = {"allreduce", "reduce_scatter", "reduce_scatter_block", "allgather",
                                                  "bcast"};

bool util_listed(const char *list, const char *name)
{
    const size_t len = strlen(name);
    for (const char *s = list; NULL != s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
        if (0 == strncmp(s, name, len) && (',' == s[len] || '\0' == s[len])) {
            return true;
        }
    }
    return false;
}

static int enum_value(MPI_T_enum enumtype, const char *value, int *out)
{
    char name[256];
    int num, len = sizeof(name);
    if (MPI_SUCCESS != MPI_T_enum_get_info(enumtype, &num, name, &len)) {
        return -1;
    }
    for (int i = 0; i < num; ++i) {
        int v;
        len = sizeof(name);
        if (MPI_SUCCESS == MPI_T_enum_get_item(enumtype, i, &v, name, &len) && 0 == strcmp(name, value)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* An MCA variable's index, type and enum: 0, 1 if it does not exist, -1 on error. */
static int cvar_info(const char *name, int *index, MPI_Datatype *dtype, MPI_T_enum *enumtype)
{
    int verbosity, bind, scope, nlen, dlen;
    char vname[256], desc[4096];
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, index)) {
        return 1;
    }
    nlen = sizeof(vname);
    dlen = sizeof(desc);
    return MPI_SUCCESS == MPI_T_cvar_get_info(*index, vname, &nlen, &verbosity, dtype, enumtype, desc, &dlen, &bind,
                                              &scope)
               ? 0
               : -1;
}

void util_usage_exit(const char *program, const char *usage, const char *why)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (NULL == why) {
        if (0 == rank) {
            printf("usage: %s %s\n", program, usage);
        }
        MPI_Finalize();
        exit(0);
    }
    if (0 == rank) {
        fprintf(stderr, "%s: %s\nusage: %s %s\n", program, why, program, usage);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int util_cvar_write(const char *name, const char *value)
{
    int index, count;
    MPI_Datatype dtype;
    MPI_T_enum enumtype;
    MPI_T_cvar_handle handle;
    const int found = cvar_info(name, &index, &dtype, &enumtype);

    if (1 == found) {
        return 1;
    }
    if (0 != found || MPI_SUCCESS != MPI_T_cvar_handle_alloc(index, NULL, &handle, &count)) {
        fprintf(stderr, "MPI_T: cannot access %s\n", name);
        return -1;
    }
    int rc;
    if (MPI_INT == dtype) {
        int v;
        char *end;
        v = (int) strtol(value, &end, 10);
        if ('\0' != *end && (MPI_T_ENUM_NULL == enumtype || 0 != enum_value(enumtype, value, &v))) {
            fprintf(stderr, "MPI_T: %s has no value %s\n", name, value);
            MPI_T_cvar_handle_free(&handle);
            return -1;
        }
        rc = MPI_T_cvar_write(handle, &v);
    } else if (MPI_UNSIGNED_LONG == dtype || MPI_UNSIGNED_LONG_LONG == dtype) {
        unsigned long long v = strtoull(value, NULL, 10);
        if (MPI_UNSIGNED_LONG == dtype) {
            unsigned long lv = (unsigned long) v;
            rc = MPI_T_cvar_write(handle, &lv);
        } else {
            rc = MPI_T_cvar_write(handle, &v);
        }
    } else if (MPI_DOUBLE == dtype) {
        double v = strtod(value, NULL);
        rc = MPI_T_cvar_write(handle, &v);
    } else {
        fprintf(stderr, "MPI_T: %s has a type this test does not write\n", name);
        rc = MPI_ERR_OTHER;
    }
    MPI_T_cvar_handle_free(&handle);
    if (MPI_SUCCESS != rc) {
        fprintf(stderr, "MPI_T: writing %s = %s failed (%d)\n", name, value, rc);
        return -1;
    }
    return 0;
}

int util_cvar_enum_names(const char *name, char *out, size_t len)
{
    int index, num, nlen = 256;
    char ename[256], item[256];
    MPI_Datatype dtype;
    MPI_T_enum enumtype;
    const int found = cvar_info(name, &index, &dtype, &enumtype);

    if (0 != found) {
        return found;
    }
    if (MPI_T_ENUM_NULL == enumtype || MPI_SUCCESS != MPI_T_enum_get_info(enumtype, &num, ename, &nlen)) {
        return -1;
    }
    out[0] = '\0';
    for (int i = 0; i < num; ++i) {
        int v, ilen = sizeof(item);
        if (MPI_SUCCESS != MPI_T_enum_get_item(enumtype, i, &v, item, &ilen)) {
            return -1;
        }
        if (0 != strcmp(item, "auto")) {
            const size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", used > 0 ? "," : "", item);
        }
    }
    return 0;
}

/* Reads a variable of the given MPI datatype (it must be the variable's; a boolean one reads as MPI_INT) into
 * value. */
static int cvar_read(const char *name, MPI_Datatype type, void *value)
{
    int index, count, verbosity, bind, scope;
    char var_name[256], desc[1024];
    int name_len = sizeof(var_name), desc_len = sizeof(desc);
    MPI_Datatype actual;
    MPI_T_enum enumtype;
    MPI_T_cvar_handle handle;
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &index)) {
        return 1;
    }
    if (MPI_SUCCESS != MPI_T_cvar_get_info(index, var_name, &name_len, &verbosity, &actual, &enumtype, desc, &desc_len,
                                           &bind, &scope) ||
        (actual != type && !(MPI_INT == type && MPI_C_BOOL == actual)) ||
        MPI_SUCCESS != MPI_T_cvar_handle_alloc(index, NULL, &handle, &count)) {
        return -1;
    }
    bool flag = false;
    const int rc = MPI_T_cvar_read(handle, MPI_C_BOOL == actual ? (void *) &flag : value);
    if (MPI_C_BOOL == actual) {
        *(int *) value = flag;
    }
    MPI_T_cvar_handle_free(&handle);
    return MPI_SUCCESS == rc ? 0 : -1;
}

int util_cvar_read_int(const char *name, int *value) { return cvar_read(name, MPI_INT, value); }

int util_cvar_read_double(const char *name, double *value) { return cvar_read(name, MPI_DOUBLE, value); }

int util_cvar_read_ulong(const char *name, unsigned long *value) { return cvar_read(name, MPI_UNSIGNED_LONG, value); }

long util_sum(MPI_Comm comm, long v)
{
    int rank, size;
    long total = v;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (0 == rank) {
        for (int r = 1; r < size; ++r) {
            long x;
            MPI_Recv(&x, 1, MPI_LONG, r, UTIL_TAG, comm, MPI_STATUS_IGNORE);
            total += x;
        }
        for (int r = 1; r < size; ++r) {
            MPI_Send(&total, 1, MPI_LONG, r, UTIL_TAG, comm);
        }
    } else {
        MPI_Send(&v, 1, MPI_LONG, 0, UTIL_TAG, comm);
        MPI_Recv(&total, 1, MPI_LONG, 0, UTIL_TAG, comm, MPI_STATUS_IGNORE);
    }
    return total;
}

bool util_all_equal(MPI_Comm comm, unsigned long long v)
{
    int rank, size;
    long differ = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (0 == rank) {
        for (int r = 1; r < size; ++r) {
            unsigned long long x;
            MPI_Recv(&x, 1, MPI_UNSIGNED_LONG_LONG, r, UTIL_TAG, comm, MPI_STATUS_IGNORE);
            differ += x != v;
        }
    } else {
        MPI_Send(&v, 1, MPI_UNSIGNED_LONG_LONG, 0, UTIL_TAG, comm);
    }
    return 0 == util_sum(comm, differ);
}

int util_calls_per_sample(double (*timed)(void *ctx, int calls), void *ctx, double sample_s, int max_calls)
{
    int calls = 1;
    double one = timed(ctx, calls);
    while (one * calls < sample_s / 10 && calls < max_calls / 2) {
        calls *= 2;
        one = timed(ctx, calls);
    }
    const double want = one > 0 ? sample_s / one + 1 : max_calls;
    return want < calls ? calls : want > max_calls ? max_calls : (int) want;
}

unsigned long long util_hash(const void *buf, size_t bytes)
{
    const unsigned char *b = buf;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < bytes; ++i) {
        h = (h ^ b[i]) * 1099511628211ULL;
    }
    return h;
}
