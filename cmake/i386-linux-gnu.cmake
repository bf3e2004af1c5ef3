# Cross toolchain: Linux on i386 (32-bit x86: 32-bit size_t and pointers,
# x87 floating point) with Debian's gcc-i686-linux-gnu and
# libc6-dev-i386-cross. The suite's 32-bit target: it tests word width
# instead of assuming it.
#   cmake -S . -B build-i386 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/i386-linux-gnu.cmake -DJET_BUILD_BENCH=OFF
#   scripts/run-tests.sh build-i386
# An x86-64 kernel with IA32 emulation runs i386 programs natively: they are
# started through the cross sysroot's own loader, so the host needs no i386
# libc of its own. A kernel without it (some VMs) cannot: then qemu-i386
# runs them, with the sysroot's libraries named first (LD_LIBRARY_PATH): by
# -L alone the sysroot's loader would read the host's ld.so.cache and load
# a host libc6-i386 of another build, and a loader and libc of different
# builds hang in pthread_create.
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

execute_process(COMMAND ${JET_CROSS_SYSROOT}/lib/ld-linux.so.2 --help
                RESULT_VARIABLE JET_I386_NATIVE_RC OUTPUT_QUIET ERROR_QUIET)
if(JET_I386_NATIVE_RC EQUAL 0)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${JET_CROSS_SYSROOT}/lib/ld-linux.so.2
      --library-path ${JET_CROSS_SYSROOT}/lib)
else()
  find_program(JET_QEMU_I386 qemu-i386)
  if(JET_QEMU_I386)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${JET_QEMU_I386} -L ${JET_CROSS_SYSROOT}
        -E LD_LIBRARY_PATH=${JET_CROSS_SYSROOT}/lib)
  else()
    message(WARNING "this kernel cannot run i386 programs and qemu-i386 is not installed: the tests cannot run")
  endif()
endif()
