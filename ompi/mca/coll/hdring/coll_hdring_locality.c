/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring locality: where each rank of a new communicator sits, turned into its topology (hdring_topo.h).
 *
 * Nodes: the runtime's host name of every process (job data, the same on every rank: no message). Open MPI
 * 4.1's runtime gives every peer's host name but only local peers' node ids, so names it is. Where the runtime
 * lacks a name (processes of several jobs, launchers that do not provide them), every rank's name is exchanged
 * instead, with one allgather.
 *
 * Domains (package and NUMA node): from hwloc, of the cpuset each process is bound to, which the runtime gives
 * for the processes of this node (none when unbound: one domain). A communicator spanning several nodes with
 * several ranks on some node needs its remote ranks' domains too, which the runtime does not have: it exchanges
 * them with one allgather, at creation. Every decision to exchange depends only on what all ranks know alike, so
 * all of them take it together.
 *
 * Cores (for the cost model, coll_hdring_model_cores): the cores hwloc finds on this node, when every rank runs on
 * it (the runtime's host names say so: one topology for all) or when the ranks exchange domains anyway (several
 * nodes of several ranks: each sends its node's count with its domain, and all take the fewest). Otherwise a core
 * per rank is assumed, alike on every rank.
 *
 * The allgather is hdring's own (rhd, log2 p steps) over the PML, not the fallback module's: the communicator is
 * still being created, and han, for one, creates sub-communicators on its first collective, which cannot happen
 * inside another's creation (it hangs).
 *
 * coll_hdring_node_map (level 9) imposes the nodes instead: for machines whose runtime misreports them, and for
 * tests that need several nodes on one machine.
 */
#include "ompi_config.h"

#include <hwloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/hwloc/base/base.h"
#include "opal/util/output.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/mpiruntime.h"

#include "coll_hdring.h"

#define NO_DOMAIN (-1)
#define NOT_ASKED (-2)

static ompi_proc_t *proc_of(struct ompi_communicator_t *comm, int r) { return ompi_comm_peer_lookup(comm, r); }

static bool same_job(const ompi_proc_t *proc)
{
    return OMPI_CAST_RTE_NAME(&proc->super.proc_name)->jobid == OMPI_PROC_MY_NAME->jobid;
}

/* The runtime's name of the process's host; NULL if it has none. Peers' names are cached in their proc by Open
 * MPI; this process's own, as the runtime names it (which may differ from gethostname), once. */
static const char *host_of(const ompi_proc_t *proc)
{
    static char *mine = NULL;
    static bool asked = false;
    if (proc != ompi_proc_local()) {
        const char *name = opal_get_proc_hostname(&proc->super);
        return NULL == name || 0 == strcmp(name, "unknown") ? NULL : name;
    }
    if (!asked) {
        int rc;
        OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, HDRING_KEY_HOSTNAME, &proc->super.proc_name, &mine, HDRING_TYPE_STRING);
        mine = OPAL_SUCCESS == rc ? mine : NULL;
        asked = true;
    }
    return mine;
}

/* The package and NUMA node covering the cpuset a process is bound to, as one number; NO_DOMAIN when it is not
 * bound, or bound across packages. */
static int domain_of(const ompi_proc_t *proc)
{
    char *cpuset = NULL;
    int rc, domain = NO_DOMAIN;

    OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, HDRING_KEY_CPUSET, &proc->super.proc_name, &cpuset, HDRING_TYPE_STRING);
    if (OPAL_SUCCESS != rc || NULL == cpuset || OPAL_SUCCESS != opal_hwloc_base_get_topology()) {
        free(cpuset);
        return NO_DOMAIN;
    }
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (NULL != set && 0 == hwloc_bitmap_list_sscanf(set, cpuset) && !hwloc_bitmap_iszero(set)) {
        hwloc_obj_t package = hwloc_get_next_obj_covering_cpuset_by_type(opal_hwloc_topology, set,
                                                                         HWLOC_OBJ_PACKAGE, NULL);
        hwloc_obj_t numa = hwloc_get_next_obj_covering_cpuset_by_type(opal_hwloc_topology, set,
                                                                      HWLOC_OBJ_NUMANODE, NULL);
        if (NULL != package) {
            domain = (int) package->logical_index * 1024 + (NULL != numa ? (int) numa->logical_index % 1024 : 0);
        }
    }
    hwloc_bitmap_free(set);
    free(cpuset);
    return domain;
}

/* The cores of this node's topology (its PUs where it names no cores); 0 when there is no topology. */
static int node_cores(void)
{
    if (OPAL_SUCCESS != opal_hwloc_base_get_topology()) {
        return 0;
    }
    const int cores = hwloc_get_nbobjs_by_type(opal_hwloc_topology, HWLOC_OBJ_CORE);
    return cores > 0 ? cores : hwloc_get_nbobjs_by_type(opal_hwloc_topology, HWLOC_OBJ_PU);
}

/* ---- machines ----
 * Nodes the runtime names apart may run on one machine: containers and network namespaces have host names of
 * their own but share one kernel, and its cores (the cost model's shape.machine_nodes). Each process publishes
 * its machine through the runtime when hdring opens, before MPI_Init's exchange: the kernel's boot id, hashed,
 * in the high 48 bits, and the machine's cores (at most 65535) in the low 16. A communicator of several named
 * nodes reads one rank's per node: job data, alike on every rank. */
#define MACHINE_KEY "coll_hdring_machine"
#define MACHINE_CORES_BITS 16
#define MACHINE_CORES_MASK ((UINT64_C(1) << MACHINE_CORES_BITS) - 1)
#define NO_MACHINE 0           /* published none: a machine of its own */
#define MACHINE_NOT_ASKED UINT64_MAX

void mca_coll_hdring_machine_publish(void)
{
    char boot_id[64];
    FILE *f;
    int rc, cores;

    if (ompi_mpi_state < OMPI_MPI_STATE_INIT_STARTED || NULL == (f = fopen("/proc/sys/kernel/random/boot_id", "r"))) {
        return;
    }
    const bool read = NULL != fgets(boot_id, sizeof(boot_id), f);
    fclose(f);
    if (!read || (cores = node_cores()) <= 0) {
        return;
    }
    uint64_t value = mca_coll_hdring_hash(MCA_COLL_HDRING_HASH_SEED, boot_id, strlen(boot_id)) & ~MACHINE_CORES_MASK;
    value |= (uint64_t) cores < MACHINE_CORES_MASK ? (uint64_t) cores : MACHINE_CORES_MASK;
    OPAL_MODEX_SEND_VALUE(rc, HDRING_SCOPE_GLOBAL, MACHINE_KEY, &value, HDRING_TYPE_UINT64);
    (void) rc; /* unpublished, every node is a machine of its own */
}

static uint64_t machine_of(const ompi_proc_t *proc)
{
    uint64_t value = NO_MACHINE, *at = &value;
    int rc;
    OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, MACHINE_KEY, &proc->super.proc_name, &at, HDRING_TYPE_UINT64);
    return OPAL_SUCCESS == rc && MACHINE_NOT_ASKED != value ? value : NO_MACHINE;
}

/* What the runtime says of each process of this job, asked once per process (the runtime takes some 10 us per
 * question, and every new communicator would ask again). */
typedef struct mca_coll_hdring_peer {
    int domain;       /* NOT_ASKED until asked */
    uint64_t machine; /* MACHINE_NOT_ASKED until asked */
} mca_coll_hdring_peer_t;

/* proc's entry, or NULL (a process of another job, asked each time; no memory). With the component's lock. */
static mca_coll_hdring_peer_t *peer_entry(const ompi_proc_t *proc)
{
    mca_coll_hdring_component_t *c = &mca_coll_hdring_component;
    const uint32_t vpid = OMPI_CAST_RTE_NAME(&proc->super.proc_name)->vpid;

    if (!same_job(proc)) {
        return NULL;
    }
    if (NULL == c->peers && ompi_process_info.num_procs <= (uint32_t) INT32_MAX &&
        NULL != (c->peers = malloc((size_t) ompi_process_info.num_procs * sizeof(*c->peers)))) {
        c->npeers = (int) ompi_process_info.num_procs;
        for (int i = 0; i < c->npeers; ++i) {
            c->peers[i] = (mca_coll_hdring_peer_t) {NOT_ASKED, MACHINE_NOT_ASKED};
        }
    }
    return vpid < (uint32_t) c->npeers ? &c->peers[vpid] : NULL;
}

/* What the runtime says of proc: its domain, its machine or both (want_*), each asked once per process of this
 * job. */
static mca_coll_hdring_peer_t peer_of(const ompi_proc_t *proc, bool want_domain, bool want_machine)
{
    mca_coll_hdring_peer_t unkept = {NOT_ASKED, MACHINE_NOT_ASKED};
    OPAL_THREAD_LOCK(&mca_coll_hdring_component.lock);
    mca_coll_hdring_peer_t *peer = peer_entry(proc);
    peer = NULL != peer ? peer : &unkept;
    if (want_domain && NOT_ASKED == peer->domain) {
        peer->domain = domain_of(proc);
    }
    if (want_machine && MACHINE_NOT_ASKED == peer->machine) {
        peer->machine = machine_of(proc);
    }
    const mca_coll_hdring_peer_t known = *peer;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_component.lock);
    return known;
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y ? -1 : x > y;
}

/* Where several of the `nodes` nodes of comm (node[r]: 0 .. nodes - 1) run on one machine, the most on one and
 * its cores into shape; nothing when a node's machine is unknown. */
static void find_machines(struct ompi_communicator_t *comm, const int *node, int nodes, hdring_shape_t *shape)
{
    const int p = ompi_comm_size(comm);
    uint64_t *machine = calloc((size_t) nodes, sizeof(*machine)); /* NO_MACHINE: not asked yet */
    bool known = NULL != machine;

    for (int r = 0; known && r < p; ++r) {
        if (NO_MACHINE == machine[node[r]]) {
            machine[node[r]] = peer_of(proc_of(comm, r), false, true).machine;
            known = NO_MACHINE != machine[node[r]];
        }
    }
    if (known) {
        qsort(machine, (size_t) nodes, sizeof(*machine), by_value);
        for (int i = 0, run = 0; i < nodes; ++i) {
            run = i > 0 && machine[i] == machine[i - 1] ? run + 1 : 1;
            if (run > 1 && run > shape->machine_nodes) {
                shape->machine_nodes = run;
                shape->machine_cores = (int) (machine[i] & MACHINE_CORES_MASK);
            }
        }
    }
    free(machine);
}

/* Node labels from coll_hdring_node_map: "a,b,c,...", the node of each process of the job by its rank in
 * MPI_COMM_WORLD. false (reported once) when it is malformed or does not cover every rank of comm. */
static bool imposed_nodes(const char *map, struct ompi_communicator_t *comm, int *node)
{
    static bool warned = false;
    const int p = ompi_comm_size(comm);
    int *labels = NULL, nlabels = 0, cap = 0;
    bool ok = true;

    for (const char *s = map; ok && '\0' != *s;) {
        char *end;
        const long v = strtol(s, &end, 10);
        ok = end != s && v >= 0 && v <= INT32_MAX && (',' == *end || '\0' == *end);
        if (ok && nlabels == cap) {
            int *grown = realloc(labels, (size_t) (cap = 2 * cap + 16) * sizeof(*labels));
            ok = NULL != grown;
            labels = ok ? grown : labels;
        }
        if (ok) {
            labels[nlabels++] = (int) v;
            s = ',' == *end ? end + 1 : end;
        }
    }
    for (int r = 0; ok && r < p; ++r) {
        const ompi_proc_t *proc = proc_of(comm, r);
        const uint32_t vpid = OMPI_CAST_RTE_NAME(&proc->super.proc_name)->vpid;
        ok = same_job(proc) && vpid < (uint32_t) nlabels;
        node[r] = ok ? labels[vpid] : 0;
    }
    free(labels);
    if (!ok && !warned) {
        mca_coll_hdring_report("bad node map", map);
        warned = true;
    }
    return ok;
}

int mca_coll_hdring_gather_values(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, const int64_t *mine,
                                  int n, int64_t *all)
{
    const hdring_partition_t parts = hdring_partition_uniform(ompi_comm_size(comm), (size_t) n);
    mca_coll_hdring_pml_t t;

    const hdring_blocks_t blocks = {&parts, NULL, NULL};
    const hdring_args_t args = {.blocks = &blocks};
    memcpy(all + (size_t) ompi_comm_rank(comm) * (size_t) n, mine, (size_t) n * sizeof(*mine));
    mca_coll_hdring_pml_init(&t, m, comm, MCA_COLL_HDRING_ALLGATHER, MPI_INT64_T, NULL, false);
    t.base[HDRING_BUF_OUT] = (char *) all;
    t.inline_pieces_bytes = 0; /* messages whole: this exchange checks, among others, that ranks agree on it */
    const int rc = mca_coll_hdring_pml_error(&t, hdring_run(&t.xport, HDRING_ALG_ALLGATHER_RHD, &args));
    mca_coll_hdring_scratch_release(&t);
    return rc;
}

typedef struct named {
    const char *name;
    int rank;
} named_t;

static int by_name(const void *a, const void *b) { return strcmp(((const named_t *) a)->name, ((const named_t *) b)->name); }

/* Nodes from the runtime's host names: equal names, equal node, numbered 0, 1, ... in the names' order. false when
 * a name is missing. */
static bool named_nodes(struct ompi_communicator_t *comm, int *node)
{
    const int p = ompi_comm_size(comm);
    named_t *names = malloc((size_t) p * sizeof(*names));
    bool ok = NULL != names;

    for (int r = 0; ok && r < p; ++r) {
        const ompi_proc_t *proc = proc_of(comm, r);
        names[r].name = same_job(proc) ? host_of(proc) : NULL;
        names[r].rank = r;
        ok = NULL != names[r].name;
    }
    if (ok) {
        qsort(names, (size_t) p, sizeof(*names), by_name);
        for (int i = 0, label = 0; i < p; ++i) {
            label += i > 0 && 0 != strcmp(names[i].name, names[i - 1].name);
            node[names[i].rank] = label;
        }
    }
    free(names);
    return ok;
}

/* The source of the map, for the trace. */
static const char *const sources[] = {"coll_hdring_node_map", "the runtime's host names",
                                      "the runtime's host names, domains exchanged", "host names exchanged"};

/*
 * The last placement this process found without an exchange (from the node map, or from the runtime's names on
 * one node or a rank per node), kept for the next communicator of the same processes in the same order and the
 * same node map: MPI_Comm_dup's, most often, which then costs no name lookups or sorting. Placements that took
 * an exchange are never kept, so finding one never changes whether a rank exchanges: every rank of a
 * communicator exchanges exactly when the others do, whatever each kept. Guarded by the component's lock.
 */
static struct {
    int p;
    opal_process_name_t *procs; /* by name: a process's object may go and another come at its address */
    bool of_world;              /* found for a communicator on MPI_COMM_WORLD's group, which lasts the job */
    char *node_map;
    hdring_topo_t topo;
    int cores, source;
} kept;

static const char *node_map_of(const mca_coll_hdring_module_t *m)
{
    return NULL == m->state->config.node_map ? "" : m->state->config.node_map;
}

/* Whether comm has the kept placement's processes and node map: O(1) when both are on MPI_COMM_WORLD's group,
 * O(p) otherwise. */
static bool is_kept(const mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm)
{
    const int p = ompi_comm_size(comm);
    if (p != kept.p || NULL == kept.procs || 0 != strcmp(kept.node_map, node_map_of(m))) {
        return false;
    }
    if (kept.of_world && mca_coll_hdring_on_world_group(comm)) {
        return true;
    }
    for (int r = 0; r < p; ++r) {
        const opal_process_name_t name = proc_of(comm, r)->super.proc_name;
        if (kept.procs[r].jobid != name.jobid || kept.procs[r].vpid != name.vpid) {
            return false;
        }
    }
    return true;
}

/* m's topology, cores and source from the kept placement if comm has it. */
static bool reuse_placement(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, int *cores, int *source)
{
    bool reused = false;
    OPAL_THREAD_LOCK(&mca_coll_hdring_component.lock);
    if (is_kept(m, comm) && HDRING_OK == hdring_topo_copy(&m->topo, &kept.topo)) {
        *cores = kept.cores;
        *source = kept.source;
        reused = true;
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_component.lock);
    return reused;
}

void mca_coll_hdring_locality_forget(void)
{
    free(kept.procs);
    free(kept.node_map);
    hdring_topo_free(&kept.topo);
    kept.procs = NULL;
    kept.node_map = NULL;
    kept.p = 0;
    kept.of_world = false;
}

/* Keeps m's placement of comm (found without an exchange); nothing when there is no memory for it. */
static void keep_placement(const mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, int cores,
                           int source)
{
    const int p = ompi_comm_size(comm);
    OPAL_THREAD_LOCK(&mca_coll_hdring_component.lock);
    mca_coll_hdring_locality_forget();
    kept.procs = malloc((size_t) p * sizeof(*kept.procs));
    kept.node_map = strdup(node_map_of(m));
    if (NULL != kept.procs && NULL != kept.node_map && HDRING_OK == hdring_topo_copy(&kept.topo, &m->topo)) {
        for (int r = 0; r < p; ++r) {
            kept.procs[r] = proc_of(comm, r)->super.proc_name;
        }
        kept.p = p;
        kept.of_world = mca_coll_hdring_on_world_group(comm);
        kept.cores = cores;
        kept.source = source;
    } else {
        mca_coll_hdring_locality_forget();
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_component.lock);
}

/* Works out m->topo for comm: the cores the model may count and which source named the nodes (sources[]). */
static int place(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, int *cores_out, int *source_out)
{
    const int p = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int *node = malloc((size_t) p * sizeof(*node)), *domain = malloc((size_t) p * sizeof(*domain));
    int64_t *all = NULL; /* the values exchanged, if any */
    int rc = OMPI_SUCCESS, source, cores = 0; /* 0: a core per rank */

    if (NULL == node || NULL == domain) {
        free(node);
        free(domain);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int r = 0; r < p; ++r) {
        domain[r] = NO_DOMAIN;
    }
    const char *node_map = m->state->config.node_map;
    if (NULL != node_map && '\0' != node_map[0] && imposed_nodes(node_map, comm, node)) {
        source = 0;
    } else if (named_nodes(comm, node)) {
        int nodes = 0;
        source = 1;
        for (int r = 0; r < p; ++r) { /* this node's ranks: the runtime has their cpusets */
            domain[r] = node[r] == node[me] ? peer_of(proc_of(comm, r), true, false).domain : NO_DOMAIN;
            nodes = node[r] >= nodes ? node[r] + 1 : nodes; /* named_nodes numbers them 0, 1, ... */
        }
        if (nodes > 1 && nodes < p) { /* several nodes, several ranks on one of them: domain and cores */
            all = malloc((size_t) p * sizeof(*all));
            const int64_t mine = (int64_t) node_cores() << 32 | (uint32_t) domain[me];
            rc = NULL == all ? OMPI_ERR_OUT_OF_RESOURCE : mca_coll_hdring_gather_values(m, comm, &mine, 1, all);
            cores = INT32_MAX;
            for (int r = 0; OMPI_SUCCESS == rc && r < p; ++r) {
                domain[r] = (int32_t) (uint32_t) all[r];
                cores = (int) (all[r] >> 32) < cores ? (int) (all[r] >> 32) : cores;
            }
            source = 2;
        } else if (1 == nodes) {
            cores = node_cores();
        }
    } else {
        const ompi_proc_t *self = proc_of(comm, me);
        const char *host = host_of(self);
        source = 3;
        all = malloc((size_t) p * sizeof(*all));
        const char *name = NULL != host ? host : opal_process_info.nodename;
        const int64_t mine = (int64_t) mca_coll_hdring_hash(MCA_COLL_HDRING_HASH_SEED, name, strlen(name));
        rc = NULL == all ? OMPI_ERR_OUT_OF_RESOURCE : mca_coll_hdring_gather_values(m, comm, &mine, 1, all);
        for (int r = 0; OMPI_SUCCESS == rc && r < p; ++r) {
            node[r] = (int) (all[r] % INT32_MAX); /* a label: equal hashes, equal node */
        }
        /* domains are not worth a second exchange here: one per node */
    }
    if (OMPI_SUCCESS == rc) {
        rc = HDRING_OK == hdring_topo_init(&m->topo, p, node, domain) ? OMPI_SUCCESS : OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (OMPI_SUCCESS == rc && (1 == source || 2 == source) && m->topo.shape.nodes > 1) {
        find_machines(comm, node, m->topo.shape.nodes, &m->topo.shape);
    }
    const bool exchanged = NULL != all;
    if (OMPI_SUCCESS == rc && !exchanged) {
        keep_placement(m, comm, cores, source);
    }
    *cores_out = cores;
    *source_out = source;
    free(all);
    free(node);
    free(domain);
    return rc;
}

int mca_coll_hdring_locality(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm)
{
    const int p = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int cores, source;
    const int rc = reuse_placement(m, comm, &cores, &source) ? OMPI_SUCCESS : place(m, comm, &cores, &source);

    if (OMPI_SUCCESS == rc) { /* coll_hdring_model_cores: found (0), a core per rank (negative), or given */
        const int model_cores = m->state->config.model_cores;
        m->topo.shape.cores = 0 == model_cores ? cores : model_cores < 0 ? 0 : model_cores;
        if (0 != model_cores) { /* and every node a machine of its own */
            m->topo.shape.machine_nodes = m->topo.shape.machine_cores = 0;
        }
    }
    if (OMPI_SUCCESS == rc && m->state->config.verbose >= 1 && 0 == me) {
        char shape[128];
        hdring_shape_describe(&m->topo.shape, shape, sizeof(shape));
        char pieces[160] = "";
        const size_t pieces_bytes = mca_coll_hdring_pieces_bytes(m, MCA_COLL_HDRING_ALLGATHER);
        if (pieces_bytes > HDRING_PML_INLINE_BYTES) {
            const size_t allreduce_bytes = mca_coll_hdring_pieces_bytes(m, MCA_COLL_HDRING_ALLREDUCE);
            const int n = snprintf(pieces, sizeof(pieces), "; messages within a node of %d-%zu B in pieces of %d B",
                                   HDRING_PML_INLINE_BYTES + 1, pieces_bytes, HDRING_PML_INLINE_BYTES);
            if (allreduce_bytes != pieces_bytes) {
                snprintf(pieces + n, sizeof(pieces) - (size_t) n,
                         " (allreduce's to %zu B: a rank may have a core of its own)", allreduce_bytes);
            }
        }
        opal_output(mca_coll_hdring_component.output, "hdring: communicator of %d ranks on %s (from %s)%s%s", p,
                    shape, sources[source], NULL != m->topo.order ? "; ranks renumbered node by node" : "", pieces);
    }
    return rc;
}
