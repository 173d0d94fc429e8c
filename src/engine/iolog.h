/*
 * The optional per-I/O log: one CSV line per completed I/O, streamed to
 * disk through a buffer per job and never held in memory.  Every job
 * appends to the same file with O_APPEND and flushes whole lines only, so
 * lines of different jobs never tear.
 */
#ifndef SSDBENCH_ENGINE_IOLOG_H
#define SSDBENCH_ENGINE_IOLOG_H

#include <stdint.h>

#include "common/error.h"

#define IOLOG_HEADER "t_ns,workload,job,op,offset,len,lat_ns,res\n"

struct iolog;

/* Create (truncate) the file and write the header. */
int iolog_create(const char *path, struct sb_err *e);
/* One writer per job on a file made by iolog_create. */
int iolog_open(const char *path, struct iolog **out, struct sb_err *e);
void iolog_line(struct iolog *l, uint64_t t_ns, uint32_t workload, uint32_t job,
		char op, uint64_t offset, uint32_t len, uint64_t lat_ns, int32_t res);
/* Flush and close; returns -1 with e set if any write failed. */
int iolog_close(struct iolog *l, struct sb_err *e);

#endif
