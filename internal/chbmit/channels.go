package chbmit

import (
	"slices"
	"strings"

	"github.com/ictal/ictal/acquire"
)

// EEG returns the labels of the file's EEG channels, in montage order, as
// acquire.ChooseEEG decides them from the labels alone (every CHB-MIT
// signal is in µV): the derivations named by their electrodes, without
// unused slots ("-", ".") or the ECG, vagus nerve stimulator and eye and
// limb leads some cases record. A montage that names no electrode (chb12's
// "F7-CS2" …) has its named-nothing channels as EEG; one with no EEG at
// all gives none.
func (f File) EEG() []string {
	info := acquire.Info{Channels: make([]acquire.Channel, len(f.Channels))}
	for i, c := range f.Channels {
		info.Channels[i] = acquire.Channel{Label: c, Unit: "uV"}
	}
	c, err := acquire.ChooseEEG(info, nil)
	if err != nil { // acquire.ErrNoEEG: nothing in the montage is EEG
		return nil
	}
	return c.Labels(info)
}

// CommonChannels returns the EEG channels (File.EEG) that every one of files
// records, by label (any case), each once, in the order of the first
// file's montage: the channels a model trained on some of the files and
// tested on another can use. left lists the EEG labels some of the files
// have and others lack, in order of first appearance.
func CommonChannels(files []File) (common, left []string) {
	count := map[string]int{} // files recording a label
	var order []string
	for _, f := range files {
		seen := map[string]bool{}
		for _, c := range f.EEG() {
			k := strings.ToUpper(strings.TrimSpace(c))
			if seen[k] {
				continue
			}
			if seen[k] = true; count[k] == 0 {
				order = append(order, strings.TrimSpace(c))
			}
			count[k]++
		}
	}
	for _, c := range order {
		if count[strings.ToUpper(c)] == len(files) {
			common = append(common, c)
		} else {
			left = append(left, c)
		}
	}
	return common, left
}

// Usable splits a patient's files into those evaluated and those left
// out. When some EEG channel is common to all files (CommonChannels), all
// are used. Otherwise (chb12, whose chb12_27 to chb12_29 use other
// montages) the files of the most frequent EEG montage decide (the
// earliest of equally frequent ones): the files that record every channel
// common to those are used, the others skipped.
func Usable(files []File) (used, skipped []File) {
	if common, _ := CommonChannels(files); len(common) > 0 || len(files) == 0 {
		return files, nil
	}
	count := map[string]int{}
	for _, f := range files {
		count[eegSet(f)]++
	}
	best := ""
	for _, f := range files {
		if k := eegSet(f); count[k] > count[best] {
			best = k
		}
	}
	var group []File
	for _, f := range files {
		if eegSet(f) == best {
			group = append(group, f)
		}
	}
	want, _ := CommonChannels(group)
	for _, f := range files {
		if len(want) > 0 && len(f.Lacks(want)) == 0 {
			used = append(used, f)
		} else {
			skipped = append(skipped, f)
		}
	}
	return used, skipped
}

// eegSet is the set of a file's EEG labels, sorted and upper-case, as one
// string ("\n" between labels).
func eegSet(f File) string {
	var ls []string
	for _, c := range f.EEG() {
		ls = append(ls, strings.ToUpper(strings.TrimSpace(c)))
	}
	slices.Sort(ls)
	return strings.Join(slices.Compact(ls), "\n")
}

// Lacks returns the labels (any case) the file's montage does not record.
func (f File) Lacks(labels []string) []string {
	var out []string
	for _, l := range labels {
		if !slices.ContainsFunc(f.Channels, func(c string) bool { return strings.EqualFold(strings.TrimSpace(c), l) }) {
			out = append(out, l)
		}
	}
	return out
}
