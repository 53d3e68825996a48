//go:build amd64 && !amd64.v3

package elem_test

// goUnfused: Go's complex arithmetic is not fused here (amd64 below
// GOAMD64=v3, the runtime included), so its bits are elem's.
const goUnfused = true
