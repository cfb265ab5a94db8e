/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring MPI_Bcast: decide, then run the algorithm over the PML (ranks rotated so the root is algorithm
 * rank 0) or hand the call to the fallback; a call that repeats the previous one (and needs no packing) replays
 * its schedule at once (coll_hdring_repeat.c).
 *
 * Ranks may describe the message with different (count, datatype) pairs of the same type signature, so the
 * scatter and pipelined algorithms, which cut the message into pieces, work on its bytes: in place when the
 * datatype lays them out contiguously, otherwise packed into the module's scratch (the root packs before, the
 * others unpack after). A root that cannot pack (no memory for it) still runs the algorithm, poisoned
 * (mca_coll_hdring_pml_poison): its empty messages reach every other rank, which all return an error instead
 * of waiting for data that will never come.
 * The binomial and flat trees send the message whole and use the caller's description as it is.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"
#include "opal/datatype/opal_convertor.h"

#include "coll_hdring.h"

/* buf's count elements to or from `bytes` packed bytes. */
static int convert(void *buf, int count, struct ompi_datatype_t *dtype, char *packed, size_t bytes, bool pack)
{
    opal_convertor_t conv;
    struct iovec iov = {packed, bytes};
    uint32_t iov_count = 1;
    size_t max_data = bytes;
    int rc;

    OBJ_CONSTRUCT(&conv, opal_convertor_t);
    if (pack) {
        rc = opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dtype->super, count, buf, 0, &conv);
        if (OPAL_SUCCESS == rc) {
            rc = opal_convertor_pack(&conv, &iov, &iov_count, &max_data) < 0 ? OMPI_ERROR : OMPI_SUCCESS;
        }
    } else {
        rc = opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor, &dtype->super, count, buf, 0, &conv);
        if (OPAL_SUCCESS == rc) {
            rc = opal_convertor_unpack(&conv, &iov, &iov_count, &max_data) < 0 ? OMPI_ERROR : OMPI_SUCCESS;
        }
    }
    OBJ_DESTRUCT(&conv);
    return OMPI_SUCCESS == rc && max_data != bytes ? OMPI_ERROR : rc;
}

/* An algorithm that cuts the message, on its bytes (key: the call's). */
static int bcast_bytes(mca_coll_hdring_module_t *m, const mca_coll_hdring_choice_t *choice, void *buf, int count,
                       struct ompi_datatype_t *dtype, size_t bytes, int root, struct ompi_communicator_t *comm,
                       const mca_coll_hdring_key_t *key)
{
    const bool contiguous = ompi_datatype_is_contiguous_memory_layout(dtype, count);
    const bool is_root = ompi_comm_rank(comm) == root;
    mca_coll_hdring_pml_t t;
    ptrdiff_t true_lb, true_extent;
    char *packed = NULL;
    int rc = OMPI_SUCCESS;

    hdring_blocks_t none;
    hdring_args_t args = {.count = bytes, .root = root};
    mca_coll_hdring_args(m, choice, NULL, false, 1, &none, &args);
    mca_coll_hdring_pml_init(&t, m, comm, MCA_COLL_HDRING_BCAST, MPI_BYTE, NULL, true);
    if (contiguous) {
        ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
        t.base[HDRING_BUF_OUT] = (char *) buf + true_lb;
    } else {
        const hdring_scratch_t need = {.tmp = bytes, .work = 0}; /* the scatter algorithms use no scratch */
        rc = mca_coll_hdring_scratch_acquire(m, &t, need);
        packed = t.base[HDRING_BUF_OUT] = t.base[HDRING_BUF_TMP];
        if (OMPI_SUCCESS == rc && is_root) {
            rc = convert(buf, count, dtype, packed, bytes, true);
        }
    }
    if (OMPI_SUCCESS != rc && is_root) {
        mca_coll_hdring_pml_poison(&t, rc);
    }
    if (OMPI_SUCCESS == rc || is_root) {
        /* packing around the run: no repeat path */
        rc = mca_coll_hdring_pml_error(&t, mca_coll_hdring_run(m, &t, MCA_COLL_HDRING_BCAST, choice->alg, &args,
                                                               contiguous ? key : NULL));
    }
    if (OMPI_SUCCESS == rc && !contiguous && !is_root) {
        rc = convert(buf, count, dtype, packed, bytes, false);
    }
    mca_coll_hdring_scratch_release(&t);
    return rc;
}

/* The algorithms that send the message whole: the binomial and the flat tree. */
static bool sends_whole(hdring_alg_t alg)
{
    return HDRING_ALG_BCAST_BINOMIAL == alg || HDRING_ALG_BCAST_FLAT == alg;
}

/* Whether the algorithm (or one of a hierarchical algorithm's phases) cuts the message in pieces. */
static bool cuts_message(const mca_coll_hdring_choice_t *choice)
{
    bool cuts = !sends_whole(choice->alg) && HDRING_ALG_NONE == hdring_algorithm(choice->alg)->inner;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        cuts |= HDRING_ALG_NONE != choice->phase[k] && !sends_whole(choice->phase[k]);
    }
    return cuts;
}

int mca_coll_hdring_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const mca_coll_hdring_key_t key = {
        .count = {(size_t) count, 0},
        .dtype = {dtype, NULL},
        .root = root,
        .out = buf,
    };
    mca_coll_hdring_pml_t *repeat = mca_coll_hdring_repeat_find(m, MCA_COLL_HDRING_BCAST, &key);
    if (NULL != repeat) {
        return mca_coll_hdring_repeat_run(m, MCA_COLL_HDRING_BCAST, repeat);
    }

    mca_coll_hdring_choice_t choice;
    mca_coll_hdring_pml_t t;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_BCAST,
        .comm_size = ompi_comm_size(comm),
        .bytes = (size_t) count * type_size,
        .ordered = false,
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.coll_bcast(buf, count, dtype, root, comm, m->fallback.coll_bcast_module);
    }
    if (cuts_message(&choice)) {
        return bcast_bytes(m, &choice, buf, count, dtype, call.bytes, root, comm, &key);
    }
    hdring_blocks_t none;
    hdring_args_t args = {.count = (size_t) count, .root = root};
    mca_coll_hdring_args(m, &choice, NULL, false, 1, &none, &args);
    mca_coll_hdring_pml_init(&t, m, comm, MCA_COLL_HDRING_BCAST, dtype, NULL, true);
    t.base[HDRING_BUF_OUT] = buf;
    const int rc = mca_coll_hdring_pml_error(&t, mca_coll_hdring_run(m, &t, MCA_COLL_HDRING_BCAST, choice.alg, &args,
                                                                     &key));
    mca_coll_hdring_scratch_release(&t);
    return rc;
}
