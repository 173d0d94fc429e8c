/*
 * ATA Security Erase.  The security feature set only erases a drive that
 * has a user password, so ssdbench sets a temporary one, erases (which
 * clears it again on success) and makes sure none is left behind whatever
 * happens.  A drive whose security is frozen refuses all of this; the BIOS
 * or the kernel froze it at boot and only a power cycle of the drive
 * unfreezes it, which the message explains.
 */
#include "device/purge_impl.h"

#include <stdio.h>

/* Never a password anyone relies on: it lives only for the erase. */
#define TEMP_PASSWORD "ssdbench-purge"

static int read_identify(int fd, struct ata_identify *id, struct sb_err *e)
{
	uint8_t page[ATA_SECTOR];
	if (ata_identify(fd, page, e) ||
	    ata_parse_identify(page, sizeof page, id, e))
		return -1;
	return 0;
}

static int refuse_state(const struct ata_security *s, struct sb_err *e)
{
	if (!s->supported)
		return sb_errf(e, "the drive does not support the ATA security "
			       "feature set; use --method discard");
	if (s->frozen)
		return sb_errf(e, "the drive's security state is frozen: the "
			       "BIOS or the kernel sent SECURITY FREEZE LOCK at "
			       "boot, and only a power cycle of the drive clears "
			       "it.  Suspend and resume the machine (the drive "
			       "wakes unfrozen on most systems) or hot-plug it, "
			       "check 'ssdbench info' shows it not frozen, and "
			       "run the purge again; or use --method discard");
	if (s->locked)
		return sb_errf(e, "the drive is locked by a password set "
			       "outside ssdbench; unlock it first");
	if (s->enabled)
		return sb_errf(e, "the drive already has a user password set "
			       "outside ssdbench; ssdbench will not erase a "
			       "drive protected by a password it does not know");
	if (s->count_expired)
		return sb_errf(e, "the drive's password attempt counter has "
			       "expired; power-cycle it and try again");
	return 0;
}

int purge_ata_secure_erase(int fd, uint64_t timeout_ns,
			   struct purge_result *res,
			   struct sb_err *e)
{
	struct ata_identify id;
	if (read_identify(fd, &id, e))
		return -1;
	const struct ata_security *s = &id.security;
	if (refuse_state(s, e))
		return -1;
	bool enhanced = s->enhanced_erase_supported;
	unsigned est_min = enhanced ? s->enhanced_erase_minutes
				    : s->erase_minutes;
	/* Allow the drive twice its own estimate if that is longer. */
	uint64_t timeout_s = timeout_ns / 1000000000;
	if ((uint64_t)est_min * 120 > timeout_s)
		timeout_s = (uint64_t)est_min * 120;
	if (timeout_s > 4000000)
		timeout_s = 4000000;

	if (ata_security_set_password(fd, TEMP_PASSWORD, e))
		return sb_err_wrap(e, "setting the temporary password");
	struct sb_err erase_err;
	int rc = ata_security_erase(fd, TEMP_PASSWORD, enhanced,
				    (unsigned)timeout_s, &erase_err);

	/* A successful erase disables the password; check, and remove it
	   ourselves if it is still there (also after a failed erase). */
	struct sb_err e2;
	if (read_identify(fd, &id, &e2) || id.security.enabled) {
		if (ata_security_disable(fd, TEMP_PASSWORD, &e2))
			return sb_errf(e, "%s%s; and the temporary password "
				       "\"%s\" could not be removed (%s): remove "
				       "it with hdparm --security-disable",
				       rc ? "the erase failed: " : "",
				       rc ? erase_err.msg : "the erase finished",
				       TEMP_PASSWORD, e2.msg);
	}
	if (rc) {
		*e = erase_err;
		return sb_err_wrap(e, "ATA security erase (the temporary "
				   "password was removed)");
	}
	snprintf(res->detail, sizeof res->detail,
		 "ATA SECURITY ERASE UNIT, %s mode (drive estimate %u min), "
		 "with a temporary user password that the erase cleared",
		 enhanced ? "enhanced" : "normal", est_min);
	return 0;
}
