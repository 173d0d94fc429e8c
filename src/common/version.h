/* The tool's version, recorded with every run and printed on every report. */
#ifndef SSDBENCH_COMMON_VERSION_H
#define SSDBENCH_COMMON_VERSION_H

#define SSDBENCH_VERSION "0.1.0"

#endif
