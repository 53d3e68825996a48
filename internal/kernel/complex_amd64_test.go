//go:build amd64

package kernel_test

// goDivisionUnfused: on amd64 the runtime's complex division is built
// without fused multiply-adds (GOAMD64=v1, the toolchain's default).
const goDivisionUnfused = true
