//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// raceEnabled reports whether this is a -race build: the assembly's memory
// accesses are then reported to the race detector, which cannot see them.
const raceEnabled = true

func raceRead[T any](s []T) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*int(unsafe.Sizeof(s[0])))
	}
}

func raceWrite[T any](s []T) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*int(unsafe.Sizeof(s[0])))
	}
}
