/*
 * coll/hdring MPI_Bcast: decide, then run the algorithm over the PML (ranks rotated so the root is algorithm
 * rank 0) or hand the call to the fallback.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_hdring.h"

int mca_coll_hdring_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    mca_coll_hdring_choice_t choice;
    mca_coll_hdring_pml_t t;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = HDRING_BCAST,
        .comm_size = ompi_comm_size(comm),
        .bytes = (size_t) count * type_size,
        .ordered = false,
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.bcast(buf, count, dtype, root, comm, m->fallback.bcast_module);
    }
    mca_coll_hdring_pml_init(&t, comm, dtype, NULL, MCA_COLL_BASE_TAG_BCAST, root);
    t.base[HDRING_BUF_OUT] = buf;
    return mca_coll_hdring_pml_error(&t, hdring_bcast(&t.xport, choice.alg, (size_t) count));
}
