#!/usr/bin/env python3
"""Checks a built Maven site: every page of the menu exists, every snippet macro found its text, and every
local link of every page leads to a file of the site (and, with a #fragment, to an element of that page with
that id or name).

Usage: check-site.py SITE_DIR SITE_XML
Prints each broken link as PAGE: LINK (why) and exits 1 if there is one."""
import os
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ('id', 'name'):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ('href', 'src'):
            if attrs.get(key) is not None and not (tag == 'meta'):
                self.links.append(attrs[key])


def parse(path, cache={}):
    if path not in cache:
        page = Page()
        with open(path, encoding='utf-8', errors='replace') as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def main(site, site_xml):
    site = os.path.abspath(site)
    broken = []
    ns = {'s': 'http://maven.apache.org/SITE/2.0.0'}
    for item in ET.parse(site_xml).getroot().iterfind('.//s:item', ns):
        href = item.get('href')
        if not os.path.isfile(os.path.join(site, href)):
            broken.append(f'site.xml: {href} (menu item "{item.get("name")}": no such page)')
    pages = [os.path.join(d, f) for d, _, fs in os.walk(site) for f in fs if f.endswith('.html')]
    for page in sorted(pages):
        with open(page, encoding='utf-8', errors='replace') as f:
            if 'Error during retrieving content' in f.read():
                broken.append(f'{os.path.relpath(page, site)}: a snippet macro whose file or id was not found')
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(('mailto:', 'javascript:')):
                continue
            target = page if not parts.path else os.path.normpath(os.path.join(os.path.dirname(page), unquote(parts.path)))
            shown = f'{os.path.relpath(page, site)}: {link}'
            if os.path.isdir(target):
                target = os.path.join(target, 'index.html')
            if not target.startswith(site + os.sep) and target != site:
                broken.append(f'{shown} (outside the site)')
            elif not os.path.isfile(target):
                broken.append(f'{shown} (no such file)')
            elif parts.fragment and target.endswith('.html') and unquote(parts.fragment) not in parse(target).ids:
                broken.append(f'{shown} (no element with id "{parts.fragment}" on that page)')
    for line in broken:
        print(line)
    print(f'{len(pages)} page(s) checked, {len(broken)} broken link(s)')
    return 1 if broken else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
