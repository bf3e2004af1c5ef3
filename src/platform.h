/*
 * platform.h — what jet asks of the compiler and the CPU, tested once
 * (internal). Every source file gets these through internal.h, num.h or
 * scan.h; none tests a compiler or an architecture on its own.
 */
#ifndef JET_PLATFORM_H
#define JET_PLATFORM_H

/* GNU C: gcc and clang (builtins, attributes, inline asm, target()). */
#if defined(__GNUC__) || defined(__clang__)
#define JET_GNUC 1
#else
#define JET_GNUC 0
#endif

#if JET_GNUC
#define JET_LIKELY(x) __builtin_expect(!!(x), 1)
#define JET_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define JET_NOINLINE __attribute__((noinline))
#define JET_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define JET_LIKELY(x) (x)
#define JET_UNLIKELY(x) (x)
#define JET_NOINLINE
#define JET_ALWAYS_INLINE inline
#endif

/* Byte order; jet assumes one of the two (the SWAR code reads words). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define JET_BIG_ENDIAN 1
#else
#define JET_BIG_ENDIAN 0
#endif

/* The architectures with hand-written code: x86-64 (intrinsics, asm) and
 * little-endian aarch64 with NEON, both only with GNU C. */
#if JET_GNUC && defined(__x86_64__)
#define JET_X86_64 1
#else
#define JET_X86_64 0
#endif
#if JET_GNUC && defined(__aarch64__) && defined(__ARM_NEON) && !JET_BIG_ENDIAN
#define JET_AARCH64_NEON 1
#else
#define JET_AARCH64_NEON 0
#endif

/* The vector code runs there unless JET_PORTABLE asks for 64-bit words
 * alone (the SWAR paths, which CI tests as a build of their own). */
#if JET_X86_64 && !defined(JET_PORTABLE)
#define JET_SIMD_X86 1
#else
#define JET_SIMD_X86 0
#endif
#if JET_AARCH64_NEON && !defined(JET_PORTABLE)
#define JET_SIMD_NEON 1
#else
#define JET_SIMD_NEON 0
#endif

/* POSIX threads (jet_stream_run's workers); elsewhere the run is serial. */
#if defined(__unix__) || defined(__APPLE__)
#define JET_HAVE_PTHREADS 1
#else
#define JET_HAVE_PTHREADS 0
#endif

#endif
