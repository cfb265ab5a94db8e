/*
 * coll/hdring MPI_Bcast.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"

#include "coll_hdring.h"

int mca_coll_hdring_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    mca_coll_hdring_choice_t choice;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = HDRING_BCAST,
        .comm_size = ompi_comm_size(comm),
        .bytes = (size_t) count * type_size,
        .ordered = false,
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    return m->fallback.bcast(buf, count, dtype, root, comm, m->fallback.bcast_module);
}
