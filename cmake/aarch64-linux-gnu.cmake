# Cross toolchain: Linux on aarch64 with Debian's gcc-aarch64-linux-gnu.
#   cmake -S . -B build-aarch64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DJET_BUILD_BENCH=OFF
#   scripts/run-tests.sh build-aarch64
# Test programs run through qemu-user (package qemu-user), which finds the
# target's loader and libc under the cross sysroot given by -L.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(JET_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${JET_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${JET_CROSS_TRIPLE}-g++)
set(JET_CROSS_SYSROOT /usr/${JET_CROSS_TRIPLE})

set(CMAKE_FIND_ROOT_PATH ${JET_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(JET_QEMU_AARCH64 qemu-aarch64)
if(JET_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${JET_QEMU_AARCH64} -L ${JET_CROSS_SYSROOT})
endif()
