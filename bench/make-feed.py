#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes an RSS 1.0 feed shaped like LWN.net's, of any number of items and any size of description, for the benchmarks.
#
# Usage: make-feed.py --items N [--description-bytes B] [--fresh] FILE
# Each description is HTML as LWN writes it (paragraphs, links, quotes, code, entities,
# non-ASCII text), about B bytes before XML escaping (default: a few hundred, like LWN's).
# With --fresh, every item's address holds "{serial}", which bench/mock-feed-server.py
# replaces with a new number on each answer, so that every answer brings only new items.
# The same arguments always give the same file.

import argparse
import datetime
import html
import random

AUTHORS = ["corbet", "jake", "daroc", "jzb", "jcorbet"]

TOPICS = [
    "A pair of workqueue improvements",
    "Security updates for Friday",
    "The rest of the 6.5 merge window",
    "Rust for filesystems",
    "Going Rogue (Digital Antiquarian)",
    "Stabilizing the io_uring API",
    "Kernel release status",
    "Memory-management changes for 6.6",
    "Fedora and the end of 32-bit support",
    "Python's per-interpreter GIL",
    "The first half of the 6.6 merge window",
    "BPF iterators for file descriptors",
    "Debian 12 \u201cbookworm\u201d released",
    "An update on GCC's static analyzer",
    "Folios for the page cache",
    "Scheduler latency and EEVDF",
]

SENTENCES = [
    "The development cycle continues with a look at memory management, filesystems, and the scheduler.",
    "Much of the discussion centered on whether the new interface can be made safe for unprivileged users.",
    "As is often the case, the patch set has been through several revisions since it was first posted.",
    "Developers \u00e9valuating the change pointed out that it breaks an ABI that user space has long relied on.",
    "The maintainer's response was that the old behavior was never documented &mdash; and never intended.",
    "Benchmarks posted with the series show a 12% improvement on the workloads that matter most.",
    "Not everybody is convinced; some would prefer to see the problem solved in user space instead.",
    "The end result, if this work is merged, will be a simpler and more predictable kernel.",
    "Reviewers asked for better documentation of the locking rules before the code goes upstream.",
    "The second version of the patch drops the sysctl knob in favor of a per-process setting.",
]

CODE = [
    "static int folio_lock_killable(struct folio *folio)\n{\n\tmight_sleep();\n\treturn 0;\n}",
    "$ git log --oneline v6.4..v6.5-rc1 | wc -l\n13574",
    "struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);\nio_uring_prep_read(sqe, fd, buf, len, 0);",
]


def paragraph(rng):
    kind = rng.random()
    if kind < 0.15:
        return "<pre>\n%s\n</pre>\n" % html.escape(rng.choice(CODE))
    if kind < 0.35:
        text = " ".join(rng.choice(SENTENCES) for _ in range(rng.randint(2, 4)))
        return '<blockquote class="bq">\n%s\n</blockquote>\n' % text
    words = []
    for _ in range(rng.randint(3, 6)):
        sentence = rng.choice(SENTENCES)
        if rng.random() < 0.3:
            target = rng.randint(900000, 999999)
            sentence = '<a href="https://lwn.net/Articles/%d/">%s</a>' % (target, sentence)
        elif rng.random() < 0.2:
            sentence = "<em>%s</em>" % sentence
        words.append(sentence)
    return "<p>\n%s\n" % " ".join(words)


def description(rng, article, size):
    parts = ['The <a href="https://lwn.net/Articles/%d/">full article</a> is on LWN.\n' % article]
    length = len(parts[0])
    while length < size:
        part = paragraph(rng)
        parts.append(part)
        length += len(part)
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description="Writes an LWN-style RSS 1.0 feed")
    parser.add_argument("--items", type=int, required=True)
    parser.add_argument("--description-bytes", type=int, default=400)
    parser.add_argument("--fresh", action="store_true", help='put "{serial}" in every item\'s address')
    parser.add_argument("file")
    args = parser.parse_args()

    rng = random.Random(args.items * 1000003 + args.description_bytes)
    addresses = []
    for i in range(args.items):
        if args.fresh:
            # "{serial}" then a fixed-width index: unique across answers too.
            addresses.append("https://lwn.net/Articles/{serial}%03d/" % i)
        else:
            addresses.append("https://lwn.net/Articles/%d/" % (937631 - i * 7))

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n\n<rdf:RDF\n'
        '  xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n'
        '  xmlns="http://purl.org/rss/1.0/"\n'
        '  xmlns:dc="http://purl.org/dc/elements/1.1/"\n'
        '  xmlns:syn="http://purl.org/rss/1.0/modules/syndication/"\n>\n\n'
        '  <channel rdf:about="https://lwn.net/headlines/rss">\n'
        "    <title>LWN.net</title>\n    <link>https://lwn.net</link>\n"
        "    <description>LWN.net is a comprehensive source of news and opinions from\n"
        "        and about the Linux community.</description>\n"
        "    <syn:updatePeriod>hourly</syn:updatePeriod>\n"
        "    <syn:updateFrequency>2</syn:updateFrequency>\n"
        "    <items>\n      <rdf:Seq>\n"
    ]
    out += ['\t<rdf:li resource="%s" />\n' % address for address in addresses]
    out.append("      </rdf:Seq>\n    </items>\n\n  </channel>\n")

    for i, address in enumerate(addresses):
        article = 937631 - i * 7
        title = TOPICS[i % len(TOPICS)]
        if i % 3 == 1:
            title = "[$] " + title
        date = datetime.datetime(2023, 7, 7, 18, 15, 29) - datetime.timedelta(minutes=37 * i)
        out.append(
            '    <item rdf:about="%s">\n'
            "      <title>%s</title>\n"
            "      <link>%s</link>\n"
            "      <dc:date>%s+00:00</dc:date>\n"
            "      <dc:creator>%s</dc:creator>\n"
            "      <description>\n%s      </description>\n"
            "    </item>\n"
            % (address, html.escape(title, quote=False), address, date.isoformat(), AUTHORS[i % len(AUTHORS)],
               html.escape(description(rng, article, args.description_bytes)))
        )
    out.append("</rdf:RDF>\n")

    with open(args.file, "w", encoding="utf-8") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
