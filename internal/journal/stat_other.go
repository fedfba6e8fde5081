//go:build !unix

package journal

import "os"

// devIno reports that no file is a journal stream: the journal exists on
// Linux only.
func devIno(*os.File) (dev, ino uint64, ok bool) { return 0, 0, false }
