//go:build !amd64

package kernel_test

// goDivisionUnfused: elsewhere the runtime's complex division may be
// fused (arm64 fuses a*b + c), so only amd64 compares against it.
const goDivisionUnfused = false
