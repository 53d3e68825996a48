//go:build !amd64 || amd64.v3

package elem_test

// goUnfused: Go's compiler may fuse complex arithmetic here.
const goUnfused = false
