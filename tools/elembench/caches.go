package main

import (
	"strings"

	"github.com/simdkit/elem"
)

// cache is one data or unified cache level of the CPU, as the plot marks it.
type cache struct {
	name      string // L1d, L2, L3
	level     int
	bytes     int
	lastLevel bool // the highest level: past it every access goes to memory
}

// dataCaches lists the caches elem found (elem.CacheSizes) in order of
// level, the last level flagged; a level the CPU lacks is left out.
func dataCaches(cs elem.Caches) []cache {
	var out []cache
	for i, size := range []int{cs.L1d, cs.L2, cs.L3} {
		if size > 0 {
			out = append(out, cache{name: [...]string{"L1d", "L2", "L3"}[i], level: i + 1, bytes: size})
		}
	}
	if len(out) > 0 {
		out[len(out)-1].lastLevel = true
	}
	return out
}

// describeCaches lists the caches for the header, such as "L1d 48KiB, L2
// 2MiB, L3 480MiB (last level)".
func describeCaches(cs []cache) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.label()
	}
	return strings.Join(parts, ", ")
}

// label names a cache and its size, and says when it is the last level.
func (c cache) label() string {
	s := c.name + " " + humanBytes(c.bytes)
	if c.lastLevel {
		s += " (last level)"
	}
	return s
}
