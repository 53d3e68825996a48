// Package cpuinfo tells the kernel dispatch what x/sys/cpu does not: the
// CPU's vendor, family and model, and the sizes of its data caches. They are
// read once, at start-up: from CPUID on amd64, else from Linux's sysfs, else
// fixed defaults.
package cpuinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// Vendor is the maker of an x86 CPU, from CPUID leaf 0.
type Vendor uint8

// The vendors the dispatch rules tell apart; every other CPU, and every
// CPU that is not x86, is Unknown.
const (
	Unknown Vendor = iota
	Intel
	AMD
)

var vendorNames = [...]string{Unknown: "unknown", Intel: "Intel", AMD: "AMD"}

// String names v: "Intel".
func (v Vendor) String() string { return vendorNames[v] }

// Caches are the data cache sizes one core sees, in bytes. A level the CPU
// does not have is 0.
type Caches struct {
	L1d int // the level-1 data cache of one core
	L2  int // the level-2 cache: one core's on most CPUs, a cluster's on some
	// L3 is the whole level-3 cache, shared with other cores: one core
	// running alone may fill all of it.
	L3 int
	// Source says where the sizes come from: "cpuid", "sysfs" or
	// "defaults".
	Source string
}

// set records a data or unified cache of the given level and size; levels
// beyond 3 are not recorded.
func (c *Caches) set(level, size int) {
	switch level {
	case 1:
		c.L1d = size
	case 2:
		c.L2 = size
	case 3:
		c.L3 = size
	}
}

// LastLevel is the size of the highest cache level there is: past it every
// access goes to memory.
func (c Caches) LastLevel() int {
	if c.L3 > 0 {
		return c.L3
	}
	return c.L2
}

// String lists the sizes: "L1d 48 KiB, L2 2 MiB, L3 480 MiB (cpuid)".
func (c Caches) String() string {
	s := "L1d " + Bytes(c.L1d)
	if c.L2 > 0 {
		s += ", L2 " + Bytes(c.L2)
	}
	if c.L3 > 0 {
		s += ", L3 " + Bytes(c.L3)
	}
	return s + " (" + c.Source + ")"
}

// Bytes writes a size to three digits in the largest binary unit it
// reaches: "48 KiB", "2.5 MiB", "2.83 MiB", "1024 KiB", "100 bytes".
func Bytes(n int) string {
	v, unit := float64(n), "bytes"
	for _, u := range []string{"KiB", "MiB", "GiB"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	prec := 2
	if v >= 100 {
		prec = 0
	} else if v >= 10 {
		prec = 1
	}
	text := strconv.FormatFloat(v, 'f', prec, 64)
	if prec > 0 {
		text = strings.TrimSuffix(strings.TrimRight(text, "0"), ".")
	}
	return text + " " + unit
}

// defaults are the sizes where neither CPUID nor sysfs tells them: a
// common desktop part's. Only the safe default dispatch depends on them.
var defaults = Caches{L1d: 32 << 10, L2: 1 << 20, L3: 32 << 20, Source: "defaults"}

// CPU is what the dispatch rules are keyed by.
type CPU struct {
	Vendor Vendor
	// Family and Model are x86's display family and model (CPUID leaf 1,
	// extended fields folded in as the vendors document); 0 elsewhere.
	Family, Model int
	Caches        Caches
}

// String describes c: "Intel family 6 model 167".
func (c CPU) String() string {
	if c.Vendor == Unknown && c.Family == 0 {
		return "unknown CPU"
	}
	return fmt.Sprintf("%s family %d model %d", c.Vendor, c.Family, c.Model)
}

// this is the CPU the program runs on.
var this = detect()

// Get returns the CPU the program runs on.
func Get() CPU { return this }

// detect reads the CPU: identity and caches from CPUID where there is
// one, caches from sysfs where CPUID does not give them, defaults last.
func detect() CPU {
	c, cachesOK := fromCPUID()
	if !cachesOK {
		if c.Caches, cachesOK = fromSysfs(sysfsCaches); !cachesOK {
			c.Caches = defaults
		}
	}
	return c
}
