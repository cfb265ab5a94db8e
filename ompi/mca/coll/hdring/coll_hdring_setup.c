/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring setups (coll_hdring_setup.h): where the ranks of a new communicator sit, turned into its topology
 * (hdring_topo.h), and the setups communicators placed alike share.
 *
 * Nodes: the runtime's host name of every process (job data, the same on every rank: no message). Open MPI
 * gives every peer's host name but only local peers' node ids, so names it is. Where the runtime lacks a name
 * (processes of several jobs, launchers that do not provide them), every rank's name is exchanged instead, with
 * one allgather.
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
 *
 * Setups: a new communicator's setup is an existing one when it has the same size, this rank the same rank in it,
 * the same parameters and the same placement: duplicates of a communicator, most often. Those share its plans and
 * cached tasks. A communicator on the group of a setup that was placed without an exchange takes it without
 * placing its ranks again (a duplicate shares its parent's group); setups placed with an exchange are never found
 * that way, so finding one never changes whether a rank exchanges: every rank of a communicator exchanges exactly
 * when the others do, whatever it finds. A few setups no communicator uses any more are kept for the next.
 */
#include "coll_hdring_setup.h"

#include <hwloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/hwloc/base/base.h"
#include "opal/util/output.h"
#include "ompi/group/group.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/mpiruntime.h"

#include "coll_hdring_agreement.h"
#include "coll_hdring_bootstrap.h"
#include "coll_hdring_network.h"
#include "coll_hdring_task.h"
#include "coll_hdring_util.h"
#include "hdring_cost.h"
#include "hdring_defaults.h"

#define NO_DOMAIN (-1)

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
            machine[node[r]] = machine_of(proc_of(comm, r));
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

/* ---- nodes from coll_hdring_node_map: "a,b,c,...", the node of each process of the job by its rank in
 * MPI_COMM_WORLD ---- */

/* How many labels the map holds, when it is well formed; -1 otherwise. */
static int map_labels(const char *map)
{
    int n = 0;
    for (const char *s = map; '\0' != *s; ++n) {
        char *end;
        const long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v > INT32_MAX || (',' != *end && '\0' != *end)) {
            return -1;
        }
        s = ',' == *end ? end + 1 : end;
    }
    return n;
}

/* Whether the map is well formed and covers every rank of comm (reported once when not). Takes no memory. */
static bool map_covers(const char *map, struct ompi_communicator_t *comm)
{
    static bool warned = false;
    const int n = map_labels(map);
    bool ok = n > 0;
    for (int r = 0; ok && r < ompi_comm_size(comm); ++r) {
        const ompi_proc_t *proc = proc_of(comm, r);
        ok = same_job(proc) && OMPI_CAST_RTE_NAME(&proc->super.proc_name)->vpid < (uint32_t) n;
    }
    if (!ok && !warned) {
        mca_coll_hdring_report("bad node map", map);
        warned = true;
    }
    return ok;
}

/* node[r] from a map that covers comm: an Open MPI status. */
static int imposed_nodes(const char *map, struct ompi_communicator_t *comm, int *node)
{
    const int n = map_labels(map);
    int *labels = malloc((size_t) n * sizeof(*labels));
    if (NULL == labels) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    const char *s = map;
    for (int i = 0; i < n; ++i) {
        char *end;
        labels[i] = (int) strtol(s, &end, 10);
        s = end + (',' == *end);
    }
    for (int r = 0; r < ompi_comm_size(comm); ++r) {
        node[r] = labels[OMPI_CAST_RTE_NAME(&proc_of(comm, r)->super.proc_name)->vpid];
    }
    free(labels);
    return OMPI_SUCCESS;
}

/* ---- nodes from the runtime's host names: equal names, equal node ---- */

static const char *name_of(struct ompi_communicator_t *comm, int r)
{
    const ompi_proc_t *proc = proc_of(comm, r);
    return same_job(proc) ? host_of(proc) : NULL;
}

/* Whether the runtime names every process's host. */
static bool all_named(struct ompi_communicator_t *comm)
{
    for (int r = 0; r < ompi_comm_size(comm); ++r) {
        if (NULL == name_of(comm, r)) {
            return false;
        }
    }
    return true;
}

/* How many hosts they name, without memory: for a rank that has none to place them with (it must still know
 * whether the others exchange). */
static int count_hosts(struct ompi_communicator_t *comm)
{
    int hosts = 0;
    for (int r = 0; r < ompi_comm_size(comm); ++r) {
        int first = 0;
        while (first < r && 0 != strcmp(name_of(comm, first), name_of(comm, r))) {
            ++first;
        }
        hosts += first == r;
    }
    return hosts;
}

typedef struct named {
    const char *name;
    int rank;
} named_t;

static int by_name(const void *a, const void *b) { return strcmp(((const named_t *) a)->name, ((const named_t *) b)->name); }

/* node[r] numbered 0, 1, ... in the names' order (all named): how many nodes, or -1 without memory. */
static int named_nodes(struct ompi_communicator_t *comm, int *node)
{
    const int p = ompi_comm_size(comm);
    named_t *names = malloc((size_t) p * sizeof(*names));
    int label = 0;
    if (NULL == names) {
        return -1;
    }
    for (int r = 0; r < p; ++r) {
        names[r].name = name_of(comm, r);
        names[r].rank = r;
    }
    qsort(names, (size_t) p, sizeof(*names), by_name);
    for (int i = 0; i < p; ++i) {
        label += i > 0 && 0 != strcmp(names[i].name, names[i - 1].name);
        node[names[i].rank] = label;
    }
    free(names);
    return label + 1;
}

/* ---- placing a communicator's ranks ---- */

/* The source of the map, for the trace. */
static const char *const sources[] = {"coll_hdring_node_map", "the runtime's host names",
                                      "the runtime's host names, domains exchanged", "host names exchanged"};

/* topo for comm: *cores, the cores the model may count (0: a core per rank), and *source, which source named the
 * nodes (sources[]; 2 and 3 took an exchange). Which source, and so whether the ranks exchange, follows from what
 * every rank knows alike, never from whether this rank has memory: a rank without takes part in the exchange all
 * the same, with empty messages, and every rank fails. */
static int place(struct ompi_communicator_t *comm, const mca_coll_hdring_config_t *cfg, hdring_topo_t *topo,
                 int *cores_out, int *source_out)
{
    const int p = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int *node = malloc((size_t) p * sizeof(*node)), *domain = malloc((size_t) p * sizeof(*domain));
    int64_t *all = NULL; /* the values exchanged, if any */
    int rc = NULL == node || NULL == domain ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    int source, cores = 0; /* 0: a core per rank */

    for (int r = 0; NULL != domain && r < p; ++r) {
        domain[r] = NO_DOMAIN;
    }
    if (NULL != cfg->node_map && '\0' != cfg->node_map[0] && map_covers(cfg->node_map, comm)) {
        source = 0;
        rc = OMPI_SUCCESS == rc ? imposed_nodes(cfg->node_map, comm, node) : rc;
    } else if (all_named(comm)) {
        int nodes = OMPI_SUCCESS == rc ? named_nodes(comm, node) : -1;
        source = 1;
        if (nodes < 0) {
            rc = OMPI_ERR_OUT_OF_RESOURCE;
            nodes = count_hosts(comm);
        }
        for (int r = 0; OMPI_SUCCESS == rc && r < p; ++r) { /* this node's ranks: the runtime has their cpusets */
            domain[r] = node[r] == node[me] ? domain_of(proc_of(comm, r)) : NO_DOMAIN;
        }
        if (nodes > 1 && nodes < p) { /* several nodes, several ranks on one of them: domains and cores */
            all = malloc((size_t) p * sizeof(*all));
            const int64_t mine = (int64_t) node_cores() << 32 | (uint32_t) (NULL == domain ? NO_DOMAIN : domain[me]);
            const int gathered = mca_coll_hdring_gather_values(comm, OMPI_SUCCESS == rc ? &mine : NULL, 1, all);
            rc = OMPI_SUCCESS == rc ? gathered : rc;
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
        const char *host = host_of(proc_of(comm, me));
        const char *name = NULL != host ? host : opal_process_info.nodename;
        const int64_t mine = (int64_t) mca_coll_hdring_hash(MCA_COLL_HDRING_HASH_SEED, name, strlen(name));
        source = 3;
        all = malloc((size_t) p * sizeof(*all));
        const int gathered = mca_coll_hdring_gather_values(comm, OMPI_SUCCESS == rc ? &mine : NULL, 1, all);
        rc = OMPI_SUCCESS == rc ? gathered : rc;
        for (int r = 0; OMPI_SUCCESS == rc && r < p; ++r) {
            node[r] = (int) (all[r] % INT32_MAX); /* a label: equal hashes, equal node */
        }
        /* domains are not worth a second exchange here: one per node */
    }
    if (OMPI_SUCCESS == rc) {
        rc = HDRING_OK == hdring_topo_init(topo, p, node, domain) ? OMPI_SUCCESS : OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (OMPI_SUCCESS == rc && (1 == source || 2 == source) && topo->shape.nodes > 1) {
        find_machines(comm, node, topo->shape.nodes, &topo->shape);
    }
    *cores_out = cores;
    *source_out = source;
    free(all);
    free(node);
    free(domain);
    return rc;
}

/* ---- setups ---- */

#define SPARE_SETUPS 4 /* kept while no communicator uses them */

static mca_coll_hdring_setup_t *setups; /* with the lock */

static bool same_topo(const hdring_topo_t *a, const hdring_topo_t *b)
{
    const size_t bytes = (size_t) a->p * sizeof(int);
    return a->p == b->p && hdring_shape_equal(&a->shape, &b->shape) && (NULL == a->order) == (NULL == b->order) &&
           (NULL == a->order || 0 == memcmp(a->order, b->order, bytes)) &&
           0 == memcmp(a->node_of, b->node_of, bytes);
}

/* A setup of the list like (p, rank, generation, topo), or with group `group` (not NULL), referenced; NULL if
 * none. With the lock. */
static mca_coll_hdring_setup_t *find(int p, int rank, unsigned generation, const hdring_topo_t *topo,
                                     const struct ompi_group_t *group)
{
    for (mca_coll_hdring_setup_t *s = setups; NULL != s; s = s->next) {
        if (s->p == p && s->rank == rank && s->generation == generation &&
            (NULL != group ? s->group == group : same_topo(&s->topo, topo))) {
            ++s->refs;
            return s;
        }
    }
    return NULL;
}

static void setup_free(mca_coll_hdring_setup_t *s)
{
    mca_coll_hdring_task_forget_all(s);
    if (NULL != s->group) {
        OBJ_RELEASE(s->group);
    }
    hdring_topo_free(&s->topo);
    free(s->config.node_map);
    free(s);
}

/* Drops the unused setups beyond SPARE_SETUPS, the least recently added first. With the lock. */
static void trim(void)
{
    int spare = 0;
    for (mca_coll_hdring_setup_t **at = &setups; NULL != *at;) {
        mca_coll_hdring_setup_t *s = *at;
        if (0 == s->refs && ++spare > SPARE_SETUPS) {
            *at = s->next;
            setup_free(s);
        } else {
            at = &s->next;
        }
    }
}

/* What the model counts and the transport cuts, from where the ranks sit and the parameters. */
static void derive(mca_coll_hdring_setup_t *s, int cores)
{
    const int model_cores = s->config.model_cores; /* found (0), a core per rank (negative), or given */
    s->topo.shape.cores = 0 == model_cores ? cores : model_cores < 0 ? 0 : model_cores;
    if (0 != model_cores) { /* and every node a machine of its own */
        s->topo.shape.machine_nodes = s->topo.shape.machine_cores = 0;
    }
    for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
        s->pieces_bytes[c] = hdring_cost_pieces_bytes(&s->topo.shape, mca_coll_hdring_core_coll(c),
                                                      s->config.inline_pieces_bytes);
    }
}

static void trace_placement(const mca_coll_hdring_setup_t *s)
{
    char shape[128], pieces[160] = "";
    hdring_shape_describe(&s->topo.shape, shape, sizeof(shape));
    const size_t pieces_bytes = s->pieces_bytes[MCA_COLL_HDRING_ALLGATHER];
    if (pieces_bytes > HDRING_PML_INLINE_BYTES) {
        const size_t allreduce_bytes = s->pieces_bytes[MCA_COLL_HDRING_ALLREDUCE];
        const int n = snprintf(pieces, sizeof(pieces), "; messages within a node of %d-%zu B in pieces of %d B",
                               HDRING_PML_INLINE_BYTES + 1, pieces_bytes, HDRING_PML_INLINE_BYTES);
        if (allreduce_bytes != pieces_bytes) {
            snprintf(pieces + n, sizeof(pieces) - (size_t) n,
                     " (allreduce's to %zu B: a rank may have a core of its own)", allreduce_bytes);
        }
    }
    opal_output(mca_coll_hdring_output, "hdring: communicator of %d rank%s on %s (from %s)%s%s", s->p,
                1 == s->p ? "" : "s", shape, sources[s->source], NULL != s->topo.order ? "; ranks renumbered node by node" : "", pieces);
}

/* Once per job, at MPI_COMM_WORLD's creation when it spans several nodes (and coll_hdring_calibrate says so): the
 * network measured and agreed (coll_hdring_network.h), then the parameters snapshot again, into *cfg and
 * *generation, so that this communicator's decisions use them too. Every rank of the job takes the same path:
 * all of them know alike whether the world spans several nodes. */
static int measure_network(struct ompi_communicator_t *comm, const hdring_topo_t *topo, mca_coll_hdring_config_t *cfg,
                           unsigned *generation)
{
    static bool done = false;
    mca_coll_hdring_network_t net;
    char why[128] = "";
    if (done || 0 == cfg->calibrate || topo->shape.nodes < 2 || comm != &ompi_mpi_comm_world.comm) {
        return OMPI_SUCCESS;
    }
    done = true;
    const hdring_shape_t *shape = &topo->shape;
    if (hdring_shape_crowded(shape) ||
        (shape->machine_nodes > 1 && shape->machine_nodes * shape->ppn_max > shape->machine_cores)) {
        /* more ranks than cores: the leaders would time the scheduler, not the network */
        if (cfg->verbose >= 1 && 0 == ompi_comm_rank(comm)) {
            opal_output(mca_coll_hdring_output,
                        "hdring: network not measured: its ranks outnumber the cores they run on, and the timings "
                        "would be the scheduler's; the model keeps latency %g us, bandwidth %g MB/s, exchange %g MB/s",
                        cfg->model_network_latency_us, cfg->model_network_bandwidth_mbs,
                        cfg->model_network_exchange_mbs);
        }
        return OMPI_SUCCESS;
    }
    if (OMPI_SUCCESS != mca_coll_hdring_network_measure(comm, topo, &net, why, sizeof(why))) {
        mca_coll_hdring_report("network not measured", why);
        return OMPI_SUCCESS;
    }
    mca_coll_hdring_params_measured(net.latency_us, net.bandwidth_mbs, net.exchange_mbs);
    *generation = mca_coll_hdring_config_snapshot(cfg);
    /* a parameter set on some ranks only keeps its value there while the others take the measured one: checked
     * again, and then hdring does not serve (the check says why) */
    const int rc = mca_coll_hdring_agreement(cfg, comm);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (cfg->verbose >= 1 && 0 == ompi_comm_rank(comm)) {
        opal_output(mca_coll_hdring_output,
                    "hdring: network measured by %d pair%s of node leaders: latency %.1f us, %.1f MB/s one way, "
                    "%.1f MB/s each way exchanging; the model uses latency %g us, bandwidth %g MB/s, exchange "
                    "%g MB/s (a value set for a parameter wins; coll_hdring_calibrate 0: the defaults)",
                    net.pairs, 1 == net.pairs ? "" : "s", net.latency_us, net.bandwidth_mbs, net.exchange_mbs,
                    cfg->model_network_latency_us, cfg->model_network_bandwidth_mbs, cfg->model_network_exchange_mbs);
    }
    return OMPI_SUCCESS;
}

int mca_coll_hdring_setup_get(struct ompi_communicator_t *comm, const mca_coll_hdring_config_t *given,
                              unsigned generation, mca_coll_hdring_setup_t **out)
{
    mca_coll_hdring_config_t config = *given, *cfg = &config;
    const int p = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    struct ompi_group_t *group = comm->c_local_group;
    int cores, source;

    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    mca_coll_hdring_setup_t *s = find(p, rank, generation, NULL, group);
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    if (NULL == s) {
        /* memory first: a rank short of it still takes part in placing's exchanges */
        s = calloc(1, sizeof(*s));
        char *node_map = NULL == cfg->node_map ? NULL : strdup(cfg->node_map);
        hdring_topo_t topo;
        int rc = place(comm, cfg, &topo, &cores, &source);
        if (OMPI_SUCCESS == rc && OMPI_SUCCESS != (rc = measure_network(comm, &topo, cfg, &generation))) {
            hdring_topo_free(&topo);
        }
        if (OMPI_SUCCESS == rc && (NULL == s || (NULL != cfg->node_map && NULL == node_map))) {
            hdring_topo_free(&topo);
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        }
        if (OMPI_SUCCESS != rc) {
            free(s);
            free(node_map);
            return rc;
        }
        s->refs = 1;
        s->topo = topo;
        s->generation = generation;
        s->p = p;
        s->rank = rank;
        s->config = *cfg;
        s->config.node_map = node_map;
        s->source = source;
        derive(s, cores);
        OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
        mca_coll_hdring_setup_t *same = find(p, rank, generation, &s->topo, NULL);
        if (NULL == same) {
            if (source < 2) { /* placed without an exchange: found again by its group */
                OBJ_RETAIN(group);
                s->group = group;
            }
            s->next = setups;
            setups = s;
            trim();
        }
        OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
        if (NULL != same) {
            setup_free(s);
            s = same;
        }
    }
    if (s->config.verbose >= 1 && 0 == rank) {
        trace_placement(s);
    }
    *out = s;
    return OMPI_SUCCESS;
}

void mca_coll_hdring_setup_release(mca_coll_hdring_setup_t *s)
{
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    --s->refs;
    trim();
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
}

void mca_coll_hdring_setup_forget_all(void)
{
    while (NULL != setups) {
        mca_coll_hdring_setup_t *s = setups;
        setups = s->next;
        setup_free(s);
    }
}
