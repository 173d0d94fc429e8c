/*
 * Purge: choose the method, check safety, run it, check the device still
 * answers.  The methods themselves live in purge_nvme.c, purge_ata.c and
 * purge_discard.c.
 */
#include "device/purge_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device/bytes.h"
#include "device/safety.h"

static const char *const method_names[PURGE_METHOD_COUNT] = {
	[PURGE_AUTO] = "auto",
	[PURGE_FORMAT] = "format",
	[PURGE_FORMAT_CRYPTO] = "format-crypto",
	[PURGE_SANITIZE_BLOCK] = "sanitize-block",
	[PURGE_SANITIZE_CRYPTO] = "sanitize-crypto",
	[PURGE_ATA_SECURE_ERASE] = "ata-secure-erase",
	[PURGE_DISCARD] = "discard",
	[PURGE_RECREATE_FILE] = "recreate-file",
};

/*
 * Strongest first, by how completely the method returns the flash to its
 * fresh state within the target: Format with user-data erase is what the
 * reviews use and stays within the namespace (unless the drive says it
 * formats all); Sanitize resets the whole controller, every namespace, and
 * cannot be stopped, so auto prefers Format where both exist.
 */
static const enum purge_method auto_order[] = {
	PURGE_FORMAT, PURGE_FORMAT_CRYPTO, PURGE_SANITIZE_BLOCK,
	PURGE_SANITIZE_CRYPTO, PURGE_ATA_SECURE_ERASE, PURGE_DISCARD,
	PURGE_RECREATE_FILE,
};

const char *purge_method_name(enum purge_method m)
{
	return (unsigned)m < PURGE_METHOD_COUNT ? method_names[m] : "?";
}

int purge_method_parse(const char *s, enum purge_method *m, struct sb_err *e)
{
	for (int i = 0; i < PURGE_METHOD_COUNT; i++)
		if (i != PURGE_RECREATE_FILE && !strcmp(s, method_names[i])) {
			*m = (enum purge_method)i;
			return 0;
		}
	char names[160];
	size_t n = 0;
	for (int i = 0; i < PURGE_RECREATE_FILE && n < sizeof names; i++)
		n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
				      i ? ", " : "", method_names[i]);
	return sb_errf(e, "unknown purge method '%s' (%s)", s, names);
}

void purge_supported(const struct device_facts *f,
		     bool out[PURGE_METHOD_COUNT])
{
	memset(out, 0, PURGE_METHOD_COUNT * sizeof out[0]);
	if (f->is_file) {
		out[PURGE_RECREATE_FILE] = true;
		return;
	}
	/*
	 * Device-mapper forwards ioctls to the device below and a partition
	 * answers for its whole disk: a format or erase sent through either
	 * would wipe far more than the target.  Only a whole NVMe namespace or
	 * SCSI disk gets the device-level methods; the rest only discard,
	 * which the block layer confines to the target's range.
	 */
	bool whole = !f->block.partition;
	if (f->nvme && whole && !strcmp(f->block.transport, "nvme")) {
		const struct nvme_ctrl_info *c = &f->nvme_ctrl;
		out[PURGE_FORMAT] = c->oacs & NVME_OACS_FORMAT;
		out[PURGE_FORMAT_CRYPTO] = (c->oacs & NVME_OACS_FORMAT) &&
					   (c->fna & NVME_FNA_CRYPTO);
		out[PURGE_SANITIZE_BLOCK] = c->sanicap & NVME_SANICAP_BLOCK;
		out[PURGE_SANITIZE_CRYPTO] = c->sanicap & NVME_SANICAP_CRYPTO;
	}
	if (f->ata && whole && !strcmp(f->block.transport, "scsi"))
		out[PURGE_ATA_SECURE_ERASE] = f->ata_id.security.supported;
	out[PURGE_DISCARD] = f->block.discard_max_bytes > 0;
}

size_t purge_supported_ordered(const struct device_facts *f,
			       enum purge_method out[PURGE_METHOD_COUNT])
{
	bool sup[PURGE_METHOD_COUNT];
	size_t n = 0;
	purge_supported(f, sup);
	for (size_t i = 0; i < sizeof auto_order / sizeof auto_order[0]; i++)
		if (sup[auto_order[i]])
			out[n++] = auto_order[i];
	return n;
}

/* "format, discard" or "none", for messages. */
static void supported_list(const struct device_facts *f, char *buf,
			   size_t len)
{
	enum purge_method m[PURGE_METHOD_COUNT];
	size_t n = purge_supported_ordered(f, m), used = 0;
	snprintf(buf, len, "none");
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", method_names[m[i]]);
}

static int check_lbaf(const struct device_facts *f, int lbaf,
		      struct sb_err *e)
{
	if (!f->nvme)
		return sb_errf(e, "--lbaf needs an NVMe namespace; %s is %s",
			       f->path, device_facts_transport(f));
	const struct nvme_ns_info *ns = &f->nvme_ns;
	if ((unsigned)lbaf >= ns->nlbaf)
		return sb_errf(e, "--lbaf %d: the namespace has LBA formats 0 "
			       "to %u", lbaf, ns->nlbaf - 1);
	if (!ns->lbaf[lbaf].data_size)
		return sb_errf(e, "--lbaf %d: the drive lists that format as "
			       "not supported", lbaf);
	return 0;
}

int purge_choose(const struct device_facts *f, enum purge_method requested,
		 int lbaf, enum purge_method *chosen, struct sb_err *e)
{
	bool sup[PURGE_METHOD_COUNT];
	char list[160];
	purge_supported(f, sup);
	supported_list(f, list, sizeof list);

	if (lbaf >= 0) {
		if (check_lbaf(f, lbaf, e))
			return -1;
		if (requested == PURGE_AUTO)
			requested = sup[PURGE_FORMAT] ? PURGE_FORMAT
						       : PURGE_FORMAT_CRYPTO;
		if (requested != PURGE_FORMAT &&
		    requested != PURGE_FORMAT_CRYPTO)
			return sb_errf(e, "--lbaf changes the format, which only "
				       "the format methods do (not %s)",
				       purge_method_name(requested));
	}
	if (f->is_file && requested != PURGE_AUTO)
		return sb_errf(e, "%s is a regular file: purge deletes and "
			       "recreates it, --method %s is for devices",
			       f->path, purge_method_name(requested));
	if (requested == PURGE_AUTO) {
		enum purge_method order[PURGE_METHOD_COUNT];
		if (purge_supported_ordered(f, order) == 0)
			return sb_errf(e, "%s supports no purge method: not "
				       "NVMe, no ATA security, no discard",
				       f->path);
		*chosen = order[0];
		return 0;
	}
	if ((unsigned)requested >= PURGE_METHOD_COUNT || !sup[requested])
		return sb_errf(e, "%s (%s) does not support --method %s; it "
			       "supports: %s", f->path,
			       device_facts_transport(f),
			       purge_method_name(requested), list);
	*chosen = requested;
	return 0;
}

uint64_t purge_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void purge_tick(const struct purge_request *r, const char *what,
		double fraction, unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
	if (r->progress && fraction >= 0)
		r->progress(r->ctx, what, fraction);
}

/*
 * Sanitize always, and Format when the drive says so, erase every
 * namespace of the controller: each sibling namespace must pass the same
 * safety check as the target.
 */
static int check_sibling_namespaces(const struct device_facts *f,
				    struct sb_err *e)
{
	/* "nvme0n1" -> "nvme0n": the namespaces of one controller. */
	char prefix[64];
	str_copy(prefix, sizeof prefix, f->block.disk);
	char *n = strrchr(prefix, 'n');
	if (!n || n == prefix)
		return 0;
	n[1] = '\0';
	DIR *d = opendir("/sys/block");
	if (!d)
		return sb_errno(e, errno, "listing /sys/block");
	int rc = 0;
	for (struct dirent *de; rc == 0 && (de = readdir(d)) != NULL;) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) ||
		    !strcmp(de->d_name, f->block.disk))
			continue;
		char dev[300];
		snprintf(dev, sizeof dev, "/dev/%s", de->d_name);
		struct safety_request sr = { dev, true, true };
		if (safety_check(&sr, e))
			rc = sb_err_wrap(e, "this method erases every namespace "
					 "of the controller, and %s is in use",
					 dev);
	}
	closedir(d);
	return rc;
}

static int recreate_file(const struct device_facts *f,
			 struct purge_result *res, struct sb_err *e)
{
	struct stat st;
	if (stat(f->path, &st))
		return sb_errno(e, errno, "%s", f->path);
	if (unlink(f->path))
		return sb_errno(e, errno, "deleting %s", f->path);
	int fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		      st.st_mode & 07777);
	if (fd < 0)
		return sb_errno(e, errno, "recreating %s (it was deleted)",
				f->path);
	if (ftruncate(fd, st.st_size)) {
		int err = errno;
		close(fd);
		return sb_errno(e, err, "sizing the new %s", f->path);
	}
	/* open() applied the umask; give the file back its exact mode. */
	if (fchmod(fd, st.st_mode & 07777) ||
	    (fchown(fd, st.st_uid, st.st_gid) && errno != EPERM)) {
		int err = errno;
		close(fd);
		return sb_errno(e, err, "restoring the mode and owner of %s",
				f->path);
	}
	close(fd);
	snprintf(res->detail, sizeof res->detail,
		 "regular file deleted and recreated, empty (sparse), at its "
		 "size of %llu bytes: a file has no flash state to reset, the "
		 "filesystem gets its blocks back",
		 (unsigned long long)st.st_size);
	return 0;
}

/* The device must come back: re-identify and read its first block. */
static int verify_answers(const struct purge_request *r,
			  const struct device_facts *before,
			  struct purge_result *res, struct sb_err *e)
{
	struct device_facts *f = malloc(sizeof *f);
	if (!f)
		return sb_errf(e, "out of memory");
	int rc = -1;
	/* After a format into another LBA format the kernel rescans the
	   namespace in the background; give it a moment. */
	for (int tries = 0; tries < 20; tries++) {
		rc = device_facts_collect(r->path, f, e);
		if (rc || !f->nvme || r->lbaf < 0 ||
		    f->nvme_ns.current_lbaf == (unsigned)r->lbaf)
			break;
		purge_tick(r, "rescan", -1, 500);
	}
	if (rc) {
		sb_err_wrap(e, "after the purge the target did not answer");
		goto out;
	}
	if (before->nvme && !f->nvme) {
		rc = sb_errf(e, "after the purge the drive no longer answers "
			     "Identify: %s", f->nvme_note);
		goto out;
	}
	res->lbaf = f->nvme ? (int)f->nvme_ns.current_lbaf : -1;
	res->logical_block_size = device_facts_logical_block(f);
	if (r->lbaf >= 0 && res->lbaf != r->lbaf) {
		rc = sb_errf(e, "the format finished but the namespace reports "
			     "LBA format %d, not %d", res->lbaf, r->lbaf);
		goto out;
	}
	uint64_t size = device_facts_size(f);
	uint32_t lbs = res->logical_block_size ? res->logical_block_size
					       : 4096;
	if (size == 0 || f->is_file) {
		snprintf(res->verify, sizeof res->verify,
			 "%s, %llu bytes", f->is_file ? "file present"
			 : "device present", (unsigned long long)size);
		rc = 0;
		goto out;
	}
	int fd = open(r->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	void *buf = NULL;
	if (fd < 0) {
		rc = sb_errno(e, errno, "reopening %s after the purge", r->path);
		goto out;
	}
	if (posix_memalign(&buf, 4096, lbs < 4096 ? 4096 : lbs)) {
		close(fd);
		rc = sb_errf(e, "out of memory");
		goto out;
	}
	ssize_t got = pread(fd, buf, lbs, 0);
	int err = errno;
	close(fd);
	free(buf);
	if (got != (ssize_t)lbs) {
		rc = got < 0 ? sb_errno(e, err, "reading the first block after "
					"the purge")
			     : sb_errf(e, "reading the first block after the "
				       "purge returned %zd bytes", got);
		goto out;
	}
	snprintf(res->verify, sizeof res->verify,
		 "%sread the first %u-byte block", f->nvme
		 ? "Identify answered; " : f->ata ? "IDENTIFY answered; " : "",
		 lbs);
	rc = 0;
out:
	free(f);
	return rc;
}

static int run_on_device(const struct purge_request *r,
			 const struct device_facts *f, enum purge_method m,
			 uint64_t timeout_ns, struct purge_result *res,
			 struct sb_err *e)
{
	/* O_EXCL on a block device fails while anything has it mounted or
	   claimed: a last guard behind safety_check(). */
	int fd = open(r->path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		if (err == EBUSY)
			return sb_errno(e, err, "%s is in use (mounted, or held "
					"by another process or driver)", r->path);
		return sb_errno(e, err, "opening %s for the purge", r->path);
	}
	int rc;
	switch (m) {
	case PURGE_FORMAT:
	case PURGE_FORMAT_CRYPTO:
		rc = purge_nvme_format(fd, f, m == PURGE_FORMAT_CRYPTO, r->lbaf,
				       timeout_ns, res, e);
		break;
	case PURGE_SANITIZE_BLOCK:
	case PURGE_SANITIZE_CRYPTO:
		rc = purge_nvme_sanitize(fd, m == PURGE_SANITIZE_CRYPTO, r,
					 timeout_ns, res, e);
		break;
	case PURGE_ATA_SECURE_ERASE:
		rc = purge_ata_secure_erase(fd, timeout_ns, res, e);
		break;
	case PURGE_DISCARD:
		rc = purge_discard(fd, f, r, timeout_ns, res, e);
		break;
	default:
		rc = sb_errf(e, "internal: method %s on a device",
			     purge_method_name(m));
	}
	close(fd);
	return rc;
}

int purge_run(const struct purge_request *r, struct purge_result *res,
	      struct sb_err *e)
{
	memset(res, 0, sizeof *res);
	res->lbaf = -1;
	if (!r->destroy_data)
		return sb_errf(e, "a purge destroys every byte on %s; say so "
			       "with --destroy-data", r->path);
	struct device_facts *f = malloc(sizeof *f);
	if (!f)
		return sb_errf(e, "out of memory");
	enum purge_method m;
	int rc = -1;
	/* Safety first: a refusal names what was found whatever method the
	   device would have supported. */
	struct safety_request sr = { r->path, true, true };
	if (safety_check(&sr, e) || device_facts_collect(r->path, f, e) ||
	    purge_choose(f, r->method, r->lbaf, &m, e))
		goto out;
	if ((m == PURGE_SANITIZE_BLOCK || m == PURGE_SANITIZE_CRYPTO ||
	     ((m == PURGE_FORMAT || m == PURGE_FORMAT_CRYPTO) &&
	      (f->nvme_ctrl.fna & NVME_FNA_FORMAT_ALL))) &&
	    check_sibling_namespaces(f, e))
		goto out;

	uint64_t timeout = r->timeout_ns ? r->timeout_ns
			   : PURGE_DEFAULT_TIMEOUT_S * 1000000000ull;
	uint64_t start = purge_now_ns();
	res->method = m;
	if (m == PURGE_RECREATE_FILE)
		rc = recreate_file(f, res, e);
	else
		rc = run_on_device(r, f, m, timeout, res, e);
	res->duration_ns = purge_now_ns() - start;
	if (rc == 0)
		rc = verify_answers(r, f, res, e);
out:
	free(f);
	return rc;
}

void purge_result_json(struct json_writer *w, const char *key,
		       const struct purge_result *res)
{
	json_object_begin(w, key);
	json_string(w, "method", purge_method_name(res->method));
	json_string(w, "detail", res->detail);
	json_double(w, "duration_s", res->duration_ns / 1e9);
	if (res->lbaf >= 0)
		json_u64(w, "lbaf", (uint64_t)res->lbaf);
	else
		json_null(w, "lbaf");
	json_u64(w, "logical_block_size", res->logical_block_size);
	json_string(w, "verify", res->verify);
	json_object_end(w);
}
