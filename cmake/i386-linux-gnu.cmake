# Cross toolchain: Linux on i386 (32-bit x86: 32-bit size_t and pointers,
# x87 floating point) with Debian's gcc-i686-linux-gnu and
# libc6-dev-i386-cross. The suite's 32-bit target: it tests word width
# instead of assuming it.
#   cmake -S . -B build-i386 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/i386-linux-gnu.cmake -DJET_BUILD_BENCH=OFF
#   scripts/run-tests.sh build-i386
# No emulator: an x86-64 Linux kernel runs i386 programs natively. They are
# started through the cross sysroot's own loader, so the host needs no i386
# libc of its own (no libc6-i386, no multiarch).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)

set(JET_CROSS_TRIPLE i686-linux-gnu)
set(CMAKE_C_COMPILER ${JET_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${JET_CROSS_TRIPLE}-g++)
set(JET_CROSS_SYSROOT /usr/${JET_CROSS_TRIPLE})

set(CMAKE_FIND_ROOT_PATH ${JET_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR ${JET_CROSS_SYSROOT}/lib/ld-linux.so.2
    --library-path ${JET_CROSS_SYSROOT}/lib)
