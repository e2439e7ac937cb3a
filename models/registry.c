// SPDX-License-Identifier: GPL-2.0
/*
 * Every replay policy by name. Adding a policy is one new file in models/ defining its
 * struct rs_policy_ops, plus its two lines here (the declaration and the table entry).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

extern const struct rs_policy_ops rs_policy_mainline;
extern const struct rs_policy_ops rs_policy_splitlru_plus1;
extern const struct rs_policy_ops rs_policy_splitlru;
extern const struct rs_policy_ops rs_policy_softlimit_tree;
extern const struct rs_policy_ops rs_policy_softlimit_rework;

static const struct rs_policy_ops *const policies[] = {
	&rs_policy_mainline,
	&rs_policy_splitlru_plus1,
	&rs_policy_splitlru,
	&rs_policy_softlimit_tree,
	&rs_policy_softlimit_rework,
};

#define NR_POLICIES (sizeof(policies) / sizeof(policies[0]))

size_t rs_policy_all(const struct rs_policy_ops *const **out)
{
	*out = policies;
	return NR_POLICIES;
}

const struct rs_policy_ops *rs_policy_find(const char *name)
{
	for (size_t i = 0; i < NR_POLICIES; i++)
		if (!strcmp(policies[i]->name, name))
			return policies[i];
	return NULL;
}

static int unknown(const char *what, const char *item, struct rs_error *err)
{
	char names[512];
	size_t len = 0;

	names[0] = '\0';
	for (size_t i = 0; i < NR_POLICIES && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
					policies[i]->name);
	return rs_error_set(err, "%s policy '%s' (valid: %s)", what, item, names);
}

int rs_policy_parse(const char *list, const struct rs_policy_ops **out, int max,
		    struct rs_error *err)
{
	char *copy, *p, *item;
	int n = 0, ret = -1;

	if (!list || !strcmp(list, "all")) {
		for (size_t i = 0; i < NR_POLICIES; i++) {
			if ((int)i >= max)
				return rs_error_set(err, "more than %d policies", max);
			out[i] = policies[i];
		}
		return (int)NR_POLICIES;
	}
	copy = strdup(list);
	if (!copy)
		return rs_error_set(err, "out of memory");
	p = copy;
	for (;;) {
		const struct rs_policy_ops *ops;
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		item = p;
		if (!strcmp(item, "all")) {
			rs_error_set(err, "'all' cannot be combined with other policies");
			goto out;
		}
		if (!*item) {
			unknown("empty", item, err);
			goto out;
		}
		ops = rs_policy_find(item);
		if (!ops) {
			unknown("unknown", item, err);
			goto out;
		}
		for (int i = 0; i < n; i++) {
			if (out[i] == ops) {
				rs_error_set(err, "policy '%s' given twice", item);
				goto out;
			}
		}
		if (n >= max) {
			rs_error_set(err, "more than %d policies", max);
			goto out;
		}
		out[n++] = ops;
		if (!comma)
			break;
		p = comma + 1;
	}
	ret = n;
out:
	free(copy);
	return ret;
}
