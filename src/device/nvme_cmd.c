/*
 * NVMe admin commands through the kernel's passthrough ioctl.  The ioctl
 * returns a negative errno when the kernel refused, or the NVMe status
 * (positive) when the controller completed the command with an error; both
 * are reported with the command's name so a user can look the code up.
 */
#include "device/nvme.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/nvme_ioctl.h>

#define OPC_GET_LOG 0x02
#define OPC_IDENTIFY 0x06
#define OPC_FORMAT 0x80
#define OPC_SANITIZE 0x84

/* Identify and log reads are quick; a generous bound still stops a hung
   controller from hanging ssdbench. */
#define QUICK_TIMEOUT_MS 10000

int nvme_get_nsid(int fd, uint32_t *nsid, struct sb_err *e)
{
	int r = ioctl(fd, NVME_IOCTL_ID);
	if (r < 0) {
		int err = errno;
		if (err == ENOTTY || err == EINVAL)
			return sb_errno(e, err, "not NVMe (the driver does not "
					"know the NVMe ioctls)");
		return sb_errno(e, err, "NVMe namespace ID ioctl");
	}
	if (r == 0)
		return sb_errf(e, "not an NVMe namespace (a controller "
			       "character device has no namespace ID)");
	*nsid = (uint32_t)r;
	return 0;
}

static int admin(int fd, struct nvme_passthru_cmd *cmd, const char *what,
		 struct sb_err *e)
{
	int r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);
	if (r < 0) {
		int err = errno;
		if (err == EACCES || err == EPERM)
			return sb_errno(e, err, "%s: NVMe admin commands need "
					"root (CAP_SYS_ADMIN)", what);
		return sb_errno(e, err, "%s", what);
	}
	if (r > 0)
		/* Status code type in bits 10:8, status code in 7:0. */
		return sb_errf(e, "%s: the controller answered status 0x%03x "
			       "(type %d, code 0x%02x)%s", what, r & 0x7ff,
			       (r >> 8) & 7, r & 0xff,
			       (r & 0x4000) ? ", do not retry" : "");
	return 0;
}

int nvme_identify(int fd, uint32_t nsid, uint8_t cns, uint8_t *page,
		  struct sb_err *e)
{
	struct nvme_passthru_cmd cmd;
	memset(&cmd, 0, sizeof cmd);
	memset(page, 0, NVME_IDENTIFY_SIZE);
	cmd.opcode = OPC_IDENTIFY;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)page;
	cmd.data_len = NVME_IDENTIFY_SIZE;
	cmd.cdw10 = cns;
	cmd.timeout_ms = QUICK_TIMEOUT_MS;
	return admin(fd, &cmd, cns == NVME_CNS_CTRL ? "Identify Controller"
		     : "Identify Namespace", e);
}

int nvme_get_log(int fd, uint32_t nsid, uint8_t lid, uint8_t *buf,
		 uint32_t len, struct sb_err *e)
{
	struct nvme_passthru_cmd cmd;
	uint32_t numd = len / 4 - 1;	/* dwords, 0-based */
	memset(&cmd, 0, sizeof cmd);
	memset(buf, 0, len);
	cmd.opcode = OPC_GET_LOG;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = lid | (numd & 0xffff) << 16;
	cmd.cdw11 = numd >> 16;
	cmd.timeout_ms = QUICK_TIMEOUT_MS;
	char what[48];
	snprintf(what, sizeof what, "Get Log Page %02Xh", lid);
	return admin(fd, &cmd, what, e);
}

int nvme_format(int fd, uint32_t nsid, unsigned lbaf, unsigned ses,
		uint32_t timeout_ms, struct sb_err *e)
{
	struct nvme_passthru_cmd cmd;
	memset(&cmd, 0, sizeof cmd);
	cmd.opcode = OPC_FORMAT;
	cmd.nsid = nsid;
	/* CDW10: LBAF bits 3:0 and 13:12, SES bits 11:9; no protection
	   information, metadata kept separate (MSET 0). */
	cmd.cdw10 = (lbaf & 0xf) | (ses & 7) << 9 | ((lbaf >> 4) & 3) << 12;
	cmd.timeout_ms = timeout_ms;
	return admin(fd, &cmd, "Format NVM", e);
}

int nvme_sanitize(int fd, unsigned sanact, struct sb_err *e)
{
	struct nvme_passthru_cmd cmd;
	memset(&cmd, 0, sizeof cmd);
	cmd.opcode = OPC_SANITIZE;
	/* SANACT bits 2:0; AUSE 0: a failed sanitize leaves the drive in
	   restricted failure mode, as the specification recommends. */
	cmd.cdw10 = sanact & 7;
	cmd.timeout_ms = QUICK_TIMEOUT_MS;
	return admin(fd, &cmd, "Sanitize", e);
}
