//go:build amd64

package kernel_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAVX2KernelsStayInVEXRegisters checks that no AVX2 kernel names a
// register only AVX-512 has. avo allocates from all 32 vector registers;
// where an AVX2 kernel needs more than 16, the assembler rejects the
// VEX-only instructions that name the others (VBLENDVPS) but encodes the
// rest as EVEX, which would stop a CPU without AVX-512 with SIGILL, and the
// tests on an AVX-512 machine would not notice. The generator sizes the
// math kernels' interleaving to the sixteen registers (x86MathGroups); this
// is what holds it to that.
func TestAVX2KernelsStayInVEXRegisters(t *testing.T) {
	files, err := filepath.Glob("*_amd64.s")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	high := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[1-7])\b`)
	checked := 0
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		fn := ""
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			if strings.HasPrefix(text, "TEXT ") {
				fn, _, _ = strings.Cut(strings.TrimPrefix(strings.Fields(text)[1], "·"), "(")
				if strings.Contains(fn, "AVX2") {
					checked++
				}
				continue
			}
			if strings.Contains(fn, "AVX2") {
				code, _, _ := strings.Cut(text, "//")
				assert.Falsef(t, high.MatchString(code), "%s:%d: %s names an AVX-512 register: %s", name, line, fn, strings.TrimSpace(code))
			}
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
	}
	assert.Greater(t, checked, 100, "AVX2 kernels found")
}
