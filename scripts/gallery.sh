#!/usr/bin/env bash
# Draws the README's gallery of charts into docs/gallery (an SVG and a PNG each) with the
# `denizen chart` commands. Run it from anywhere after changing a chart or the rules.
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/gallery
mkdir -p "$out"
denizen() { cargo run --quiet --release --all-features -p denizen_cli -- "$@" > /dev/null; }
denizen chart odds goblin-caves --depths 1-10 --png -o "$out/odds-goblin-caves.svg"
denizen chart odds volcano --depths 1-20 --png -o "$out/odds-volcano.svg"
denizen chart angband feelings --png -o "$out/angband-feelings.svg"
denizen chart angband alloc 20 --png -o "$out/angband-alloc-20.svg"
denizen chart encounters --type 4 --growth prose --png -o "$out/encounters.svg"
echo "wrote $(ls "$out" | wc -l) files into $out"
