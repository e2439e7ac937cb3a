// SPDX-License-Identifier: GPL-2.0
/*
 * The memory cgroup hierarchy for `record`: finding it (v1 or v2), creating the workload's
 * cgroup and its limits, moving the workload in, the id -> path and pid -> cgroup maps written
 * at start, the cgroups of interest for snapshots, and removing what we created.
 *
 * A memcg tracepoint's id is the cgroup id, which is the inode number of the cgroup's directory
 * on the memory hierarchy (docs/markers.md), so ids here are st_ino of those directories.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record_private.h"

/* /proc/mounts writes a space as \040 and so on: undo it in place. */
static void unescape_mount(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static int has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || strchr(seps, p[-1])) && (!p[n] || strchr(seps, p[n])))
			return 1;
	return 0;
}

int rec_memcg_find(struct rec_memcg_root *root, struct rs_error *err)
{
	char line[4096], dev[256], mnt[PATH_MAX], type[64], opts[2048];
	char v2mnt[PATH_MAX] = "";
	FILE *f;

	memset(root, 0, sizeof(*root));
	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return rs_error_set(err, "cannot read /proc/self/mounts: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %4095s %63s %2047s", dev, mnt, type, opts) != 4)
			continue;
		unescape_mount(mnt);
		if (!strcmp(type, "cgroup") && has_word(opts, "memory", ",")) {
			snprintf(root->mnt, sizeof(root->mnt), "%s", mnt);
			fclose(f);
			return 0;
		}
		if (!strcmp(type, "cgroup2") && !v2mnt[0]) {
			char path[PATH_MAX + 32], ctl[1024];

			snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
			if (!rec_read_file(path, ctl, sizeof(ctl)) && has_word(ctl, "memory", " "))
				snprintf(v2mnt, sizeof(v2mnt), "%s", mnt);
		}
	}
	fclose(f);
	if (!v2mnt[0])
		return rs_error_set(err, "no memory cgroup controller: no cgroup v1 mount with "
				    "'memory' and no cgroup2 mount whose cgroup.controllers "
				    "lists it");
	root->v2 = 1;
	snprintf(root->mnt, sizeof(root->mnt), "%s", v2mnt);
	return 0;
}

char *rec_cgroup_normalize(const struct rec_memcg_root *root, const char *path)
{
	size_t ml = strlen(root->mnt);
	char *out, *o;
	const char *p = path;

	/* Accept the full path too: /sys/fs/cgroup/memory/rs_x is /rs_x. */
	if (!strncmp(p, root->mnt, ml) && (p[ml] == '/' || !p[ml]))
		p += ml;
	out = malloc(strlen(p) + 2);
	if (!out)
		return NULL;
	o = out;
	while (*p) {
		const char *e;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			free(out);
			return NULL;
		}
		*o++ = '/';
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	if (!out[0] || strlen(out) >= PATH_MAX - ml - 64) {
		free(out);	/* the root itself, or too long to build file names from */
		return NULL;
	}
	return out;
}

static int cg_file(const struct rec *r, char *buf, size_t len, const char *rel, const char *file)
{
	int n = snprintf(buf, len, "%s%s%s%s", r->mem.mnt, strcmp(rel, "/") ? rel : "",
			 file ? "/" : "", file ? file : "");

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* v2 offers a controller to a child only when the parent's subtree_control names it. */
static int v2_enable_memory(struct rec *r, const char *parent_rel, struct rs_error *err)
{
	char path[PATH_MAX], ctl[1024];

	if (cg_file(r, path, sizeof(path), parent_rel, "cgroup.subtree_control"))
		return rs_error_set(err, "cgroup path too long");
	if (!rec_read_file(path, ctl, sizeof(ctl)) && has_word(ctl, "memory", " "))
		return 0;
	if (rec_write_file(path, "+memory"))
		return rs_error_set(err, "cannot enable the memory controller in %s: %s", path,
				    strerror(errno));
	return 0;
}

static int write_limit(struct rec *r, const char *file, int64_t bytes, struct rs_error *err)
{
	char path[PATH_MAX], val[32];

	if (bytes < 0)
		return 0;
	snprintf(val, sizeof(val), "%lld", (long long)bytes);
	if (cg_file(r, path, sizeof(path), r->cgroup, file))
		return rs_error_set(err, "cgroup path too long");
	if (rec_write_file(path, val))
		return rs_error_set(err, "cannot set %s to %s: %s", path, val, strerror(errno));
	return 0;
}

/*
 * cgroup v2 allows no processes in a cgroup that hands a controller to its children (the
 * "no internal processes" rule): a workload running in the cgroup itself could not give its
 * own children the memory controller (EBUSY) and would charge everything to it. So the
 * workload runs in a leaf below it, REC_LEAF, with memory enabled for the cgroup's children
 * first; the workload may make siblings of that leaf and give them memory limits.
 */
static int v2_leaf(struct rec *r, struct rs_error *err)
{
	char path[PATH_MAX];
	size_t n = strlen(r->cgroup) + sizeof("/" REC_LEAF);

	if (v2_enable_memory(r, r->cgroup, err))
		return -1;
	if (!(r->workload_cg = malloc(n)))
		return rs_error_set(err, "out of memory");
	snprintf(r->workload_cg, n, "%s/%s", strcmp(r->cgroup, "/") ? r->cgroup : "", REC_LEAF);
	if (cg_file(r, path, sizeof(path), r->workload_cg, NULL))
		return rs_error_set(err, "cgroup path too long");
	if (mkdir(path, 0755)) {
		if (errno != EEXIST)
			return rs_error_set(err, "cannot create cgroup %s: %s", path,
					    strerror(errno));
	} else {
		r->created_leaf = true;
	}
	return 0;
}

int rec_cgroup_setup(struct rec *r, struct rs_error *err)
{
	char path[PATH_MAX], rel[PATH_MAX];
	const char *p = r->cgroup;
	struct stat sb;

	/* Create each missing component, remembering the topmost one to remove it later. */
	rel[0] = '\0';
	while (*p) {
		const char *e = strchr(p + 1, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		size_t rl = strlen(rel);

		if (rl + n >= sizeof(rel))
			return rs_error_set(err, "cgroup path too long");
		memcpy(rel + rl, p, n);
		rel[rl + n] = '\0';
		p += n;
		if (cg_file(r, path, sizeof(path), rel, NULL))
			return rs_error_set(err, "cgroup path too long");
		if (!stat(path, &sb)) {
			if (!S_ISDIR(sb.st_mode))
				return rs_error_set(err, "%s is not a cgroup directory", path);
			continue;
		}
		if (r->mem.v2) {
			char parent[PATH_MAX];

			snprintf(parent, sizeof(parent), "%.*s", (int)rl, rel);
			if (v2_enable_memory(r, rl ? parent : "/", err))
				return -1;
		}
		if (mkdir(path, 0755))
			return rs_error_set(err, "cannot create cgroup %s: %s", path,
					    strerror(errno));
		if (!r->created_top && !(r->created_top = strdup(rel)))
			return rs_error_set(err, "out of memory");
	}
	if (cg_file(r, path, sizeof(path), r->cgroup, r->mem.v2 ? "memory.max" :
		    "memory.limit_in_bytes"))
		return rs_error_set(err, "cgroup path too long");
	if (access(path, F_OK))
		return rs_error_set(err, "cgroup %s has no memory controller files (%s)",
				    r->cgroup, path);
	if (write_limit(r, r->mem.v2 ? "memory.max" : "memory.limit_in_bytes", r->limit, err) ||
	    write_limit(r, r->mem.v2 ? "memory.low" : "memory.soft_limit_in_bytes",
			r->soft_limit, err))
		return -1;
	return r->mem.v2 ? v2_leaf(r, err) : 0;
}

int rec_cgroup_procs_path(struct rec *r, char *buf, size_t len)
{
	return cg_file(r, buf, len, r->workload_cg ? r->workload_cg : r->cgroup, "cgroup.procs");
}

int rec_cgroup_join_self(const char *procs_path)
{
	char num[24], *p = num + sizeof(num);
	pid_t pid = getpid();
	ssize_t n;
	int fd;

	/* No stdio in a forked child of a threaded process: format the pid by hand. */
	do {
		*--p = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid);
	fd = open(procs_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, p, (size_t)(num + sizeof(num) - p));
	close(fd);
	return n > 0 ? 0 : -1;
}

/* Remove dir and the cgroups below it, deepest first. */
static int remove_tree(const char *dir, int depth)
{
	char sub[PATH_MAX];
	struct dirent *d;
	DIR *dh;
	int ret = 0;

	if (depth > REC_MAX_DEPTH)
		return -1;
	dh = opendir(dir);
	if (dh) {
		while ((d = readdir(dh))) {
			if (d->d_name[0] == '.' || d->d_type != DT_DIR)
				continue;
			if (snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name) < (int)sizeof(sub))
				ret |= remove_tree(sub, depth + 1);
		}
		closedir(dh);
	}
	/* A task that just exited can keep the cgroup busy for a moment. */
	for (int i = 0; i < 50; i++) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (!rmdir(dir) || errno == ENOENT)
			return ret;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return -1;
}

int rec_cgroup_remove(struct rec *r, struct rs_error *err)
{
	char path[PATH_MAX];

	if (r->keep_cgroup)
		return 0;
	if (!r->created_top && r->created_leaf) {
		/* the leaf below a cgroup that was there before us: only the leaf goes */
		if (cg_file(r, path, sizeof(path), r->workload_cg, NULL))
			return rs_error_set(err, "cgroup path too long");
		if (remove_tree(path, 0))
			return rs_error_set(err, "cannot remove cgroup %s: %s", path,
					    strerror(errno));
		return 0;
	}
	if (!r->created_top)
		return 0;
	if (cg_file(r, path, sizeof(path), r->created_top, NULL))
		return rs_error_set(err, "cgroup path too long");
	if (remove_tree(path, 0))
		return rs_error_set(err, "cannot remove cgroup %s: %s", path, strerror(errno));
	return 0;
}

uint64_t rec_cgroup_id(const struct rec_memcg_root *root, const char *rel)
{
	char path[PATH_MAX];
	struct stat sb;

	if (snprintf(path, sizeof(path), "%s%s", root->mnt, strcmp(rel, "/") ? rel : "") >=
	    (int)sizeof(path) || stat(path, &sb))
		return 0;
	return (uint64_t)sb.st_ino;
}

struct walk {
	struct rec *r;
	size_t count;
	/* either write cgroup_map markers, or collect paths */
	char **rels;
	size_t nr, max;
};

static int walk_add(struct walk *w, const char *rel)
{
	for (size_t i = 0; i < w->nr; i++)
		if (!strcmp(w->rels[i], rel))
			return 0;
	if (w->nr >= w->max)
		return -1;
	w->rels[w->nr] = strdup(rel);
	if (!w->rels[w->nr])
		return -1;
	w->nr++;
	return 0;
}

/* Visit rel and (when depth allows) the cgroups below it, bounded in depth and count. */
static void walk_tree(struct walk *w, const char *rel, int depth, int descend)
{
	char path[PATH_MAX], sub[PATH_MAX], esc[3 * 512];
	struct dirent *d;
	DIR *dh;

	if (++w->count > REC_MAX_CGROUPS)
		return;
	if (w->rels) {
		walk_add(w, rel);
	} else {
		rec_escape_path(rel, esc, sizeof(esc));
		rec_mark(w->r, "cgroup_map id=%llu path=%s",
			 (unsigned long long)rec_cgroup_id(&w->r->mem, rel), esc);
	}
	if (!descend || depth >= REC_MAX_DEPTH || cg_file(w->r, path, sizeof(path), rel, NULL))
		return;
	dh = opendir(path);
	if (!dh)
		return;
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", strcmp(rel, "/") ? rel : "", d->d_name) >=
		    (int)sizeof(sub))
			continue;
		walk_tree(w, sub, depth + 1, descend);
	}
	closedir(dh);
}

int rec_cgroup_write_map(struct rec *r, struct rs_error *err)
{
	struct walk w = { .r = r };

	walk_tree(&w, "/", 0, 1);
	return 0;
}

/* The memory cgroup of a task from /proc/PID/cgroup, into rel; -1 when not found. */
static int task_memcg(const struct rec_memcg_root *root, const char *pid, char *rel, size_t len)
{
	char path[64], buf[8192];
	char *line, *save = NULL;

	if (snprintf(path, sizeof(path), "/proc/%s/cgroup", pid) >= (int)sizeof(path) ||
	    rec_read_file(path, buf, sizeof(buf)))
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		/* v1: "4:memory:/path"; v2: "0::/path" */
		if (root->v2 ? !strcmp(line, "0") && c2 == c1 + 1 :
		    has_word(c1 + 1, "memory", ",")) {
			snprintf(rel, len, "%s", c2 + 1);
			return 0;
		}
	}
	return -1;
}

int rec_task_write_map(struct rec *r, struct rs_error *err)
{
	char rel[PATH_MAX], esc[3 * 512];
	struct dirent *d;
	size_t n = 0;
	DIR *dh;

	dh = opendir("/proc");
	if (!dh)
		return rs_error_set(err, "cannot read /proc: %s", strerror(errno));
	while ((d = readdir(dh)) && n < 65536) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		n++;
		if (task_memcg(&r->mem, d->d_name, rel, sizeof(rel)) || !strcmp(rel, "/"))
			continue;
		rec_escape_path(rel, esc, sizeof(esc));
		rec_mark(r, "task_cgroup pid=%s id=%llu path=%s", d->d_name,
			 (unsigned long long)rec_cgroup_id(&r->mem, rel), esc);
	}
	closedir(dh);
	return 0;
}

static void parent_of(const char *rel, char *buf, size_t len)
{
	const char *s = strrchr(rel, '/');
	size_t n = s ? (size_t)(s - rel) : 0;

	if (n == 0)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)n, rel);
}

size_t rec_cgroups_of_interest(struct rec *r, char **rels, size_t max)
{
	struct walk w = { .r = r, .rels = rels, .max = max };
	char parent[PATH_MAX], path[PATH_MAX], sub[PATH_MAX];
	struct dirent *d;
	DIR *dh;

	if (r->cgroup) {
		parent_of(r->cgroup, parent, sizeof(parent));
		walk_tree(&w, r->cgroup, 0, 1);
		/* The root's numbers are the machine's, which node_stat already has. */
		if (strcmp(parent, "/"))
			walk_add(&w, parent);
		if (!cg_file(r, path, sizeof(path), parent, NULL) && (dh = opendir(path))) {
			while ((d = readdir(dh))) {
				if (d->d_name[0] == '.' || d->d_type != DT_DIR)
					continue;
				/* under the root, only our own test groups are siblings */
				if (!strcmp(parent, "/") && strncmp(d->d_name, "rs_", 3))
					continue;
				if (snprintf(sub, sizeof(sub), "%s/%s", strcmp(parent, "/") ?
					     parent : "", d->d_name) < (int)sizeof(sub))
					walk_add(&w, sub);
			}
			closedir(dh);
		}
	}
	for (size_t i = 0; i < r->nr_watch; i++)
		walk_add(&w, r->watch[i]);
	return w.nr;
}
