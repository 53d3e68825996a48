//go:build !linux

package bigbuf

const onLinux = false

// isMapped: nothing is mapped outside Linux.
func isMapped[T any]([]T) bool { return false }
