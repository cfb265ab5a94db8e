/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring running a chosen algorithm: from the module's recorded schedule of the collective when the call
 * repeats the arguments of the calls before it, directly otherwise (hdring_schedule.h), with a trace of which;
 * a call that replayed is kept for the repeat path (coll_hdring_repeat.c).
 */
#include "ompi_config.h"

#include "coll_hdring.h"

int mca_coll_hdring_run(mca_coll_hdring_module_t *m, mca_coll_hdring_pml_t *t, mca_coll_hdring_coll_t coll,
                        hdring_alg_t alg, const hdring_args_t *args, const mca_coll_hdring_key_t *key)
{
    hdring_schedule_t *s = &m->state->schedule[coll];
    if (0 == (m->state->ran & 1u << coll)) {
        m->state->ran |= 1u << coll;
        hdring_schedule_init(s);
        mca_coll_hdring_repeat_init(m, coll);
    }
    mca_coll_hdring_repeat_disarm(m, coll);
    const int rc = hdring_schedule_run(s, &t->xport, alg, args, m->state->config.replay_calls);
    if (m->state->config.verbose >= 2 && 0 == ompi_comm_rank(t->comm)) {
        static const char *const how[] = {"ran directly", "recorded its schedule and replayed it", "replayed"};
        opal_output(mca_coll_hdring_component.output, "hdring: %s %s (calls in a row with these arguments: %d; "
                    "schedule: %zu steps)", mca_coll_hdring_coll_name(coll), how[s->how], s->keyed ? s->calls : 0,
                    s->recorded ? s->nsteps : 0);
    }
    mca_coll_hdring_repeat_arm(m, coll, key, t, rc);
    return rc;
}
