/*
 * ATA commands wrapped in SCSI ATA PASS-THROUGH (16) (SAT-3) and sent with
 * SG_IO.  libata (and SAT bridges) translate them for the drive; anything
 * else either lacks SG_IO (loop, zram, virtio: ENOTTY / EINVAL) or answers
 * ILLEGAL REQUEST, which is how "not ATA" is recognized.
 */
#include "device/ata.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>

#define PROTO_NON_DATA 3
#define PROTO_PIO_IN 4
#define PROTO_PIO_OUT 5

#define CMD_IDENTIFY 0xec
#define CMD_SMART 0xb0
#define CMD_SEC_SET_PASSWORD 0xf1
#define CMD_SEC_ERASE_PREPARE 0xf3
#define CMD_SEC_ERASE_UNIT 0xf4
#define CMD_SEC_DISABLE_PASSWORD 0xf6

#define QUICK_TIMEOUT_MS 15000

struct ata_cmd {
	const char *name;
	uint8_t command, features, lba_mid, lba_high;
	int proto;
	uint8_t *buf;			/* one sector, or NULL */
	unsigned timeout_ms;
};

static const char *sense_key_name(unsigned key)
{
	switch (key) {
	case 0x2: return "not ready";
	case 0x3: return "medium error";
	case 0x4: return "hardware error";
	case 0x5: return "illegal request";
	case 0xb: return "aborted command";
	default: return "error";
	}
}

int ata_check_sense(const char *what, const uint8_t *sense, unsigned len,
		    struct sb_err *e)
{
	if (len < 3)
		return sb_errf(e, "%s: check condition without sense data",
			       what);
	unsigned resp = sense[0] & 0x7f, key, asc = 0, ascq = 0;
	bool ata_err = false;
	if (resp == 0x72 || resp == 0x73) {
		key = sense[1] & 0xf;
		asc = sense[2];
		ascq = len > 3 ? sense[3] : 0;
		for (unsigned i = 8; i + 1 < len; i += 2u + sense[i + 1])
			if (sense[i] == 0x09 && i + 13 < len)
				ata_err = sense[i + 13] & 0x01;
	} else {
		key = sense[2] & 0xf;
		if (len > 13) {
			asc = sense[12];
			ascq = sense[13];
		}
	}
	/* Recovered error with a clean ATA status is how some SATLs report
	   success. */
	if ((key == 0 || key == 1) && !ata_err)
		return 0;
	if (key == 0x5)
		return sb_errf(e, "not ATA: %s was refused (illegal request, "
			       "asc %02xh/%02xh: not an ATA device behind "
			       "this SCSI layer)", what, asc, ascq);
	return sb_errf(e, "%s: the drive answered %s (sense key %xh, asc "
		       "%02xh/%02xh)%s", what, sense_key_name(key), key,
		       asc, ascq, ata_err ? ", ATA error bit set" : "");
}

static int ata_exec(int fd, const struct ata_cmd *c, struct sb_err *e)
{
	uint8_t cdb[16], sense[64];
	struct sg_io_hdr io;
	memset(cdb, 0, sizeof cdb);
	memset(sense, 0, sizeof sense);
	memset(&io, 0, sizeof io);

	cdb[0] = 0x85;				/* ATA PASS-THROUGH (16) */
	cdb[1] = (uint8_t)(c->proto << 1);
	if (c->buf)
		/* T_LENGTH in the sector count field, counted in blocks;
		   T_DIR 1 for data from the device. */
		cdb[2] = (uint8_t)((c->proto == PROTO_PIO_IN ? 0x08 : 0) |
				   0x04 | 0x02);
	cdb[4] = c->features;
	cdb[6] = c->buf ? 1 : 0;
	cdb[10] = c->lba_mid;
	cdb[12] = c->lba_high;
	cdb[14] = c->command;

	io.interface_id = 'S';
	io.cmdp = cdb;
	io.cmd_len = sizeof cdb;
	io.sbp = sense;
	io.mx_sb_len = sizeof sense;
	io.timeout = c->timeout_ms;
	if (c->buf) {
		io.dxferp = c->buf;
		io.dxfer_len = ATA_SECTOR;
		io.dxfer_direction = c->proto == PROTO_PIO_IN
			? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV;
	} else {
		io.dxfer_direction = SG_DXFER_NONE;
	}
	if (ioctl(fd, SG_IO, &io) < 0) {
		int err = errno;
		if (err == ENOTTY || err == EINVAL)
			return sb_errno(e, err, "not ATA (no SCSI passthrough "
					"on this device)");
		if (err == EPERM || err == EACCES)
			return sb_errno(e, err, "%s: ATA passthrough needs root",
					c->name);
		return sb_errno(e, err, "%s", c->name);
	}
	if (io.host_status)
		return sb_errf(e, "%s: host adapter error %u", c->name,
			       io.host_status);
	if (io.status == 0 && io.sb_len_wr == 0)
		return 0;
	return ata_check_sense(c->name, sense, io.sb_len_wr, e);
}

int ata_identify(int fd, uint8_t page[ATA_SECTOR], struct sb_err *e)
{
	memset(page, 0, ATA_SECTOR);
	struct ata_cmd c = { "IDENTIFY DEVICE", CMD_IDENTIFY, 0, 0, 0,
			     PROTO_PIO_IN, page, QUICK_TIMEOUT_MS };
	return ata_exec(fd, &c, e);
}

int ata_smart_read(int fd, uint8_t page[ATA_SECTOR], struct sb_err *e)
{
	memset(page, 0, ATA_SECTOR);
	/* SMART READ DATA: feature D0h and the C24Fh key in LBA mid/high. */
	struct ata_cmd c = { "SMART READ DATA", CMD_SMART, 0xd0, 0x4f, 0xc2,
			     PROTO_PIO_IN, page, QUICK_TIMEOUT_MS };
	return ata_exec(fd, &c, e);
}

/* The security commands carry one sector: word 0 control bits, words 1-16
   the 32-byte password, zero padded. */
static void password_sector(uint8_t *buf, const char *pw, uint16_t control)
{
	memset(buf, 0, ATA_SECTOR);
	buf[0] = (uint8_t)(control & 0xff);
	buf[1] = (uint8_t)(control >> 8);
	size_t n = strlen(pw);
	memcpy(buf + 2, pw, n > 32 ? 32 : n);
}

int ata_security_set_password(int fd, const char *pw, struct sb_err *e)
{
	uint8_t buf[ATA_SECTOR];
	/* Control 0: user password, security level high, so the master
	   password can still unlock the drive if anything goes wrong. */
	password_sector(buf, pw, 0);
	struct ata_cmd c = { "SECURITY SET PASSWORD", CMD_SEC_SET_PASSWORD, 0,
			     0, 0, PROTO_PIO_OUT, buf, QUICK_TIMEOUT_MS };
	return ata_exec(fd, &c, e);
}

int ata_security_erase(int fd, const char *pw, bool enhanced,
		       unsigned timeout_s, struct sb_err *e)
{
	uint8_t buf[ATA_SECTOR];
	struct ata_cmd prep = { "SECURITY ERASE PREPARE", CMD_SEC_ERASE_PREPARE,
				0, 0, 0, PROTO_NON_DATA, NULL,
				QUICK_TIMEOUT_MS };
	/* ERASE UNIT must follow ERASE PREPARE directly. */
	if (ata_exec(fd, &prep, e))
		return -1;
	password_sector(buf, pw, enhanced ? 2 : 0);
	unsigned ms = timeout_s > 4000000 ? 4000000000u : timeout_s * 1000u;
	struct ata_cmd c = { "SECURITY ERASE UNIT", CMD_SEC_ERASE_UNIT, 0, 0,
			     0, PROTO_PIO_OUT, buf, ms };
	return ata_exec(fd, &c, e);
}

int ata_security_disable(int fd, const char *pw, struct sb_err *e)
{
	uint8_t buf[ATA_SECTOR];
	password_sector(buf, pw, 0);
	struct ata_cmd c = { "SECURITY DISABLE PASSWORD",
			     CMD_SEC_DISABLE_PASSWORD, 0, 0, 0, PROTO_PIO_OUT,
			     buf, QUICK_TIMEOUT_MS };
	return ata_exec(fd, &c, e);
}
