/**
 * A labelled set for passage ranking: pages of several kinds, each with questions whose answering
 * paragraph is known. `answer` is a piece of that paragraph as it reads in the page's extracted
 * content, so a passage holds the answer when its text contains `answer`. Written for this set
 * (places, products and tools are made up); the questions are worded as a reader would ask, not
 * copied from the paragraphs.
 */
export interface LabelledQuestion {
  question: string;
  answer: string;
}

export interface LabelledPage {
  path: string;
  kind: string;
  contentType: string;
  body: string;
  questions: LabelledQuestion[];
}

const html = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<header><a href="/">Home</a> <nav><a href="/news">News</a> <a href="/sport">Sport</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>
${body}
<footer><p>Copyright 2026. All rights reserved.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>`;

const news: LabelledPage = {
  path: "/passages/tidal-plant.html",
  kind: "news article",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Kestrel Bay switches on its tidal turbines",
    `<main><article><h1>Kestrel Bay switches on its tidal turbines</h1>
<p>The harbour town of Kestrel Bay switched on its first tidal energy array on Tuesday morning, after four years of planning and two winters of construction in the channel between the harbour wall and Gull Island.</p>
<p>The twelve turbines are expected to supply about a third of the electricity the town uses in a year, and local officials hope the project will draw engineering firms to the old dockyard.</p>
<p>The array is the first of its size in the country to be connected to the grid, and it has been watched closely by other coastal towns. Delegations from three ports visited the site during construction, and two of them have since commissioned their own studies of the currents off their harbours.</p>
<p>Construction was not always smooth. The first attempt to lower a tripod onto the seabed in 2024 was abandoned when a winter storm damaged the crane barge, and the work fell six months behind schedule. The contractor made up part of the delay by assembling the second batch of turbines on the quay instead of at its yard.</p>
<p>The scheme cost 48 million euros. Most of it came from the regional development fund, while 6 million euros were raised from residents through a community bond paying 4 percent interest a year.</p>
<p>"This is the biggest thing to happen in the bay since the ferry started," said the mayor, Ruth Ellery, who pressed the button that released the brakes on the first rotor. "The tide comes in twice a day whether we like it or not. Now it pays us."</p>
<h2>How the turbines work</h2>
<p>Each turbine stands on a steel tripod pinned to the seabed 25 metres down. Its two blades, each nine metres long, turn with both the flood and the ebb tide, and the machine starts generating once the current runs faster than one metre per second.</p>
<p>The electricity is carried ashore by a three kilometre subsea cable that comes up at a new substation behind the former fish market, where it is fed into the regional grid.</p>
<p>Engineers from the operating company watch the array from a control room on the quay. The blades can be turned out of the flow in about ninety seconds if a storm or a fault makes that necessary.</p>
<p>Maintenance is planned for the calm weeks of late summer. Each turbine can be lifted out of the water in one piece by a jack-up vessel, brought to the quay for servicing and put back within two days, so the array never has to stop as a whole.</p>
<p>The operator expects the turbines to last twenty-five years. After that, the tripods are designed to be pulled out of the seabed and the steel recycled, leaving the channel as it was before the work began.</p>
<h2>Worries on the quay</h2>
<p>Not everyone in the bay is celebrating. The fishing association says the 400 metre exclusion zone around the array has closed some of the best crab grounds in the channel, and the operator has agreed to pay 200,000 euros a year into a compensation fund for the boats affected.</p>
<p>Marine biologists from the university are listening for harbour porpoises with underwater microphones moored around the site. The turbines are programmed to stop automatically whenever a porpoise is heard within 50 metres of a rotor.</p>
<p>So far the recordings show no change in how often porpoises pass through the channel, the researchers said, though they cautioned that a full year of data will be needed before drawing conclusions.</p>
<p>Sailing clubs were also worried at first that the array would close the channel to pleasure boats. The harbour master has marked a passage along the island shore that stays open at all states of the tide, and a light buoy at each corner of the array shows its edges at night.</p>
<p>Some residents have complained about the noise from the substation behind the fish market, a low hum that can be heard on still evenings. The operator says acoustic panels will be fitted around the transformers before the end of the year.</p>
<h2>What comes next</h2>
<p>A second phase of twenty more turbines further out in the channel is planned for 2027, depending on the result of an environmental assessment that is due next spring.</p>
<p>The town council has also asked whether part of the profits could stay in the bay. Under the agreement signed last year, one percent of the array's revenue goes into a community fund for the harbour, the lifeboat station and the primary school.</p>
<p>Electricity prices for households will not change directly, because the power is sold into the regional grid at market rates. The council argues that the jobs and the community fund are the local benefit, not cheaper bills.</p>
<p>Residents who want to see the array up close can join a guided tour of the control room on Saturday mornings; places are free but must be booked at the town hall.</p>
</article>
<aside><h3>Most read</h3><ul><li><a href="/a">Ferry timetable changes for the summer</a></li><li><a href="/b">School play sells out in an hour</a></li></ul></aside>
</main>`,
  ),
  questions: [
    { question: "How much did the Kestrel Bay tidal project cost and who paid for it?", answer: "The scheme cost 48 million euros." },
    { question: "What happens to the turbines when porpoises are nearby?", answer: "programmed to stop automatically whenever a porpoise is heard" },
    { question: "How does the electricity from the array get to land?", answer: "carried ashore by a three kilometre subsea cable" },
    { question: "Can members of the public visit the tidal plant?", answer: "join a guided tour of the control room on Saturday mornings" },
    { question: "How large is the exclusion zone for fishing boats around the array?", answer: "400 metre exclusion zone around the array" },
  ],
};

const docs: LabelledPage = {
  path: "/passages/tidewater-docs.html",
  kind: "documentation",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Configuring the tidewater sync daemon",
    `<div class="docs-layout"><nav class="sidebar"><ul><li><a href="/docs/start">Getting started</a></li><li><a href="/docs/config">Configuration</a></li><li><a href="/docs/cli">Command line</a></li></ul></nav>
<main class="docs-body"><h1>Configuring the tidewater sync daemon</h1>
<p>tidewater keeps a local folder and a remote bucket in step. It runs as a background service, watches the folder for changes and uploads them in batches. This page explains how to install it, where its settings live and what to do when it stops.</p>
<h2>Installation</h2>
<p>On Debian and Ubuntu, add our apt repository and install the tidewater package; the package creates a system user and a service unit that starts the daemon at boot.</p>
<pre><code class="language-sh">curl -fsSL https://apt.tidewater.example/key.asc | sudo tee /etc/apt/keyrings/tidewater.asc
sudo apt install tidewater</code></pre>
<p>On macOS, use the Homebrew formula. Windows is not supported yet.</p>
<p>After installing, enable the service with systemctl enable --now tidewater. The daemon refuses to start until the configuration file names a folder and a bucket, and it says so in the journal.</p>
<p>To upgrade, install the new package over the old one. The service restarts by itself and picks up where it stopped, because the list of files already sent is kept in a small database in the state directory.</p>
<h2>The configuration file</h2>
<p>The daemon reads its settings from /etc/tidewater/tidewater.toml when it runs as a system service. A user instance looks in $XDG_CONFIG_HOME/tidewater/tidewater.toml instead, falling back to ~/.config/tidewater/tidewater.toml when that variable is not set.</p>
<table><thead><tr><th>Key</th><th>Default</th><th>Meaning</th></tr></thead><tbody>
<tr><td>folder</td><td>none</td><td>The local folder to watch</td></tr>
<tr><td>bucket</td><td>none</td><td>The remote bucket URL</td></tr>
<tr><td>batch_seconds</td><td>10</td><td>How long changes collect before a batch is sent</td></tr>
<tr><td>retries</td><td>8</td><td>How many times a failed upload is tried again</td></tr>
<tr><td>log_level</td><td>info</td><td>One of error, warn, info, debug</td></tr>
</tbody></table>
<p>Keys that are not in the table are ignored with a warning, so a typing mistake in a key name does not stop the daemon, but it does leave the setting at its default. Changes to the file take effect when the service is reloaded with systemctl reload tidewater; a full restart is not needed.</p>
<p>Credentials for the bucket are not stored in this file. The daemon reads them from the credentials file named by the credentials key, which must be readable only by the tidewater user.</p>
<h2>Retries and backoff</h2>
<p>When an upload fails, tidewater tries it again up to the number of times set by retries. The first retry comes after two seconds and every later one waits twice as long as the one before, up to a ceiling of five minutes between attempts.</p>
<p>Files that still fail after the last retry are listed in the failed queue, which you can inspect with tidewater queue and send again with tidewater queue retry.</p>
<p>Uploads that are interrupted halfway, for example by a dropped network connection, are resumed from the last completed part rather than started again, as long as the file has not changed in the meantime.</p>
<h2>Ignoring files</h2>
<p>To keep files out of the sync, create a .tideignore file in the watched folder. It uses the same pattern syntax as .gitignore, so build output and editor swap files can be left out with a few lines.</p>
<p>Hidden files whose names start with a dot are synced like any other file unless a pattern excludes them. Symbolic links are not followed: the link itself is uploaded as a small marker file.</p>
<p>Very large files are split into parts of 64 megabytes that are uploaded in parallel. The number of parallel parts can be set with the parallel_parts key, which defaults to four.</p>
<h2>Logging</h2>
<p>The daemon writes to the system journal. Set log_level to debug for a line per file, and read the output with journalctl -u tidewater.</p>
<p>Each batch writes one summary line at info level with the number of files sent, the bytes transferred and how long the batch took. Errors are always logged, whatever the level, together with the file they concern.</p>
<h2>Troubleshooting</h2>
<p>If the service keeps restarting, check its exit status with systemctl status tidewater. Exit code 75 means the remote bucket could not be reached and the daemon will try again on its own; exit code 78 means the configuration file has an error, which the journal names.</p>
<p>A daemon that runs but uploads nothing is usually watching the wrong folder: check that folder points at an absolute path the tidewater user can read.</p>
</main></div>`,
  ),
  questions: [
    { question: "Where does tidewater look for its settings file?", answer: "reads its settings from /etc/tidewater/tidewater.toml" },
    { question: "How long does tidewater wait before trying a failed upload again?", answer: "The first retry comes after two seconds" },
    { question: "How can I exclude some files from being synced?", answer: "create a .tideignore file in the watched folder" },
    { question: "What does exit code 75 mean?", answer: "Exit code 75 means the remote bucket could not be reached" },
    { question: "How do I install tidewater on Ubuntu?", answer: "add our apt repository and install the tidewater package" },
  ],
};

const faq = (question: string, answer: string) => `<h3>${question}</h3>\n<p>${answer}</p>`;

const library: LabelledPage = {
  path: "/passages/library-faq.html",
  kind: "FAQ",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Library card questions",
    `<main><h1>Library card questions</h1>
<p>Answers to the questions our front desk hears most often. If yours is not here, ask at any branch or call us during opening hours.</p>
${faq("Who can join the library?", "Anyone who lives, works or studies in the district can join for free. Children under 12 can have their own card when a parent or guardian signs the form with them.")}
${faq("What do I need to bring?", "Bring a photo ID and something showing your address, such as a recent utility bill or a tenancy agreement. Students can show their student card instead of proof of address.")}
${faq("What is the loan limit?", "Adult cards can have up to 15 items out at the same time, including up to 5 DVDs. Children's cards have a limit of 10 items.")}
${faq("How long are loans?", "Books and audiobooks are lent for three weeks, DVDs and games for one week. The due date is printed on your receipt and shown in your online account.")}
${faq("Can I extend a loan?", "You can renew an item up to three times online, by phone or at the self-service machines, as long as nobody else has reserved it. Each renewal starts a new loan period from that day.")}
${faq("Are there overdue charges?", "We stopped charging overdue fines in 2024. Items that are more than six weeks late are treated as lost and the replacement cost is added to your account until they come back.")}
${faq("What if my card is lost or stolen?", "Tell us as soon as possible so nobody else can borrow on your account. A replacement card costs 3 euros and your loans and reservations move to the new card.")}
${faq("Can I use the computers without a card?", "Visitors can book a one-hour guest session on the public computers at the information desk; printing is paid for at the machines.")}
${faq("Can I reserve a book that is on loan?", "Yes. Reservations are free and can be made in the online catalogue or at any desk. We send an email or a text message when the item is waiting for you, and it is kept for seven days.")}
${faq("Can I borrow e-books?", "Card holders can borrow e-books and e-audiobooks through the library app with their card number and PIN. Up to 8 digital titles can be borrowed at a time, and they return themselves at the end of the loan.")}
${faq("What are the opening hours?", "The central library is open from 9 am to 8 pm on weekdays and from 10 am to 4 pm on Saturdays. Branch libraries have shorter hours, listed on each branch page.")}
${faq("Can I return items at any branch?", "Items can be returned at any branch in the district, and the central library has a return box that is open around the clock. Items returned in the box are checked in on the next opening day.")}
${faq("How do I change my PIN or contact details?", "Log in to your online account and open the settings page, or ask at a desk with your card and photo ID.")}
</main>`,
  ),
  questions: [
    { question: "How many books can I borrow at the same time?", answer: "Adult cards can have up to 15 items out at the same time" },
    { question: "Do I have to pay fines if I return books late?", answer: "We stopped charging overdue fines in 2024." },
    { question: "Can my child get a library card?", answer: "Children under 12 can have their own card" },
    { question: "How do I renew my books?", answer: "You can renew an item up to three times online" },
    { question: "I lost my library card, what should I do?", answer: "A replacement card costs 3 euros" },
  ],
};

const recipe: LabelledPage = {
  path: "/passages/rye-sourdough.html",
  kind: "recipe",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Dark rye sourdough loaf",
    `<main><article class="recipe"><h1>Dark rye sourdough loaf</h1>
<p>My grandmother baked this bread every Friday, and the smell of caraway still takes me back to her kitchen. It took me years of dense, gummy loaves before I understood that rye dough behaves nothing like wheat dough.</p>
<p>Rye flour has very little gluten, so the dough never becomes stretchy. Instead it is a sticky paste that you shape with wet hands and bake in a tin. Do not be tempted to add more flour when it sticks; that is what it is supposed to do.</p>
<p>The starter matters more than anything else here. A rye starter fed the evening before should smell sour and fruity and be full of bubbles when you use it. If it smells of nail polish remover it is hungry: feed it again and wait a few hours.</p>
<p>I have tried this recipe with several brands of flour over the years. Darker rye flours with more bran give a deeper flavour and a darker crumb, while light rye makes a milder loaf that children seem to prefer.</p>
<p>This loaf is baked in a 900 g tin. If you only have a smaller tin, divide the dough between two and shorten the second part of the baking by about fifteen minutes.</p>
<h2>Ingredients</h2>
<ul><li>300 g active rye sourdough starter</li><li>400 g dark rye flour</li><li>100 g strong white bread flour</li><li>400 ml warm water</li><li>12 g salt</li><li>2 teaspoons caraway seeds</li></ul>
<h2>Method</h2>
<ol>
<li>Mix the starter, both flours, water, salt and caraway in a large bowl until no dry flour is left.</li>
<li>Scrape the paste into a greased loaf tin, smooth the top with a wet spatula and dust it with rye flour.</li>
<li>Cover the tin and leave it in a warm place for 2 to 3 hours, until the dough has risen by about a quarter and cracks appear in the flour on top.</li>
<li>Bake at 230 degrees C for 15 minutes, then lower the oven to 200 degrees C and bake for another 45 minutes.</li>
<li>Turn the loaf out onto a rack while it is hot.</li>
</ol>
<h2>Tips</h2>
<p>You can swap the white bread flour for wholemeal wheat flour, which gives a slightly heavier crumb. Replacing the rye flour itself does not work: the loaf would need a different method altogether.</p>
<p>Let the loaf cool completely, ideally overnight, before you cut it. Rye bread keeps setting as it cools, and cut warm it will be sticky inside.</p>
<p>Wrapped in a cotton cloth the bread keeps for up to a week at room temperature, and sliced it freezes well for three months.</p>
<p>If the top of the loaf is pale, the oven probably runs cool; an oven thermometer is a good investment for any bread baking. A loaf that sounds hollow when tapped on the bottom is done.</p>
<p>Seeds are optional. Caraway is traditional, but fennel, coriander or a handful of sunflower seeds all work, and some bakers add a spoonful of dark treacle for colour and sweetness.</p>
<p>If the bread has a gap under the crust, the dough rose too long before baking. Next time bake it when the first cracks appear rather than waiting for more.</p>
<section class="comments"><h3>Comments</h3><p>Made this last weekend and it came out perfectly, thank you!</p></section>
</article></main>`,
  ),
  questions: [
    { question: "How long should the rye dough rise before baking?", answer: "leave it in a warm place for 2 to 3 hours" },
    { question: "At what temperature is the rye bread baked?", answer: "Bake at 230 degrees C for 15 minutes" },
    { question: "Can I use wholemeal flour instead of white flour?", answer: "swap the white bread flour for wholemeal wheat flour" },
    { question: "How long does the bread keep and can it be frozen?", answer: "keeps for up to a week at room temperature" },
    { question: "When can I slice the loaf?", answer: "Let the loaf cool completely, ideally overnight" },
  ],
};

const post = (user: string, date: string, text: string) =>
  `<div class="post"><div class="post-meta"><a href="/u/${user}">${user}</a> <span>${date}</span></div><div class="post-body">${text}</div></div>`;

const forum: LabelledPage = {
  path: "/passages/chain-skipping.html",
  kind: "forum thread",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Chain skips on the smallest cog - Cycling forum",
    `<main><h1>Chain skips on the smallest cog</h1>
<div class="thread">
${post("marta_rides", "12 March", "<p>Since I put a new chain on my commuter last week, it jumps whenever I pedal hard in the smallest sprocket at the back. The other gears are fine. The bike has an eight speed cassette that has done about 9,000 km. Any ideas?</p>")}
${post("gravel_greg", "12 March", "<p>What cassette brand is it? Some of the cheaper ones have soft steel on the small cogs.</p>")}
${post("marta_rides", "12 March", "<p>It is whatever came with the bike, a basic eight speed one. The chain was a cheap one from the supermarket too.</p>")}
${post("spokewise", "12 March", "<p>A new chain on an old cassette is the classic cause. The chain and sprockets wear together, and the small cogs you use most wear out first, so a fresh chain rides up over their worn teeth and slips under load.</p>")}
${post("derailleur_dan", "13 March", "<p>Before you buy anything, check the shifting. If the cable has stretched a little the derailleur sits between two cogs. Turn the barrel adjuster on the derailleur a quarter turn anticlockwise at a time while turning the cranks until the chain runs quietly on the small cog.</p>")}
${post("marta_rides", "13 March", "<p>Tried the barrel adjuster, no change. It only happens when I stand on the pedals.</p>")}
${post("spokewise", "14 March", "<p>Then it is the cassette. At 9,000 km an eight speed cassette has usually had it. A new one costs less than a tank of fuel, and it is worth replacing the chainrings too if their teeth look hooked like shark fins.</p>")}
${post("gravel_greg", "14 March", "<p>Also check the derailleur hanger. If the bike has fallen on its right side the hanger may be bent, and then the shifting is never quite right whatever you do with the cable.</p>")}
${post("derailleur_dan", "14 March", "<p>Good point about the hanger. A bike shop can straighten it with an alignment tool in a few minutes, and a replacement hanger is cheap if it has been bent too often.</p>")}
${post("marta_rides", "15 March", "<p>Hanger looks straight to me. Which tools do I need to change the cassette myself?</p>")}
${post("spokewise", "15 March", "<p>You need a cassette lockring tool that fits your cassette and a chain whip to hold the sprockets while you undo the lockring, plus a big adjustable spanner. Tighten the new lockring firmly, about 40 newton metres.</p>")}
${post("old_tourer", "14 March", "<p>For next time: measure the chain with a chain checker every thousand kilometres or so. Once it shows 0.5 percent stretch on an eight speed chain, swap it, and the cassette will last through two or three chains.</p>")}
${post("marta_rides", "16 March", "<p>New cassette fitted and the skipping is gone. Thanks everyone!</p>")}
</div></main>`,
  ),
  questions: [
    { question: "Why does a new chain skip on an old cassette?", answer: "a fresh chain rides up over their worn teeth and slips under load" },
    { question: "How do I adjust the cable tension of the rear derailleur?", answer: "Turn the barrel adjuster on the derailleur a quarter turn anticlockwise" },
    { question: "How do I know when my chain is worn out and should be replaced?", answer: "Once it shows 0.5 percent stretch on an eight speed chain" },
    { question: "Should I replace the chainrings as well?", answer: "worth replacing the chainrings too if their teeth look hooked" },
  ],
};

const product: LabelledPage = {
  path: "/passages/travel-kettle.html",
  kind: "product page",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Aster 2 travel kettle",
    `<main><div class="product"><h1>Aster 2 travel kettle</h1>
<p class="price">49.00 EUR</p><button>Add to basket</button>
<h2>Description</h2>
<p>The Aster 2 folds flat to the height of a paperback, so it fits in a carry-on bag next to your laptop. Its silicone body pops up in one movement and locks in place; the stainless steel base heats water without any plastic touching it.</p>
<p>A switch on the base lets you set the kettle for 110 to 120 volt or 220 to 240 volt mains, so it works in North America and Japan as well as in Europe. Plug adapters are not included.</p>
<p>A cool-touch handle folds out from the side and a clear window shows the water level. The kettle switches itself off when the water boils or when it is switched on empty, and the lid locks so it cannot open when the kettle is tipped.</p>
<p>In the box you will find the kettle, a detachable cord, two silicone cups that nest inside the kettle when it is folded, and a travel pouch.</p>
<h2>Specifications</h2>
<table><tbody>
<tr><th>Capacity</th><td>0.8 litres, about three cups</td></tr>
<tr><th>Power</th><td>1100 W at 230 V, 600 W at 115 V</td></tr>
<tr><th>Weight</th><td>520 g</td></tr>
<tr><th>Folded size</th><td>18 x 15 x 6 cm</td></tr>
<tr><th>Cord</th><td>Detachable, 1 m</td></tr>
</tbody></table>
<h2>Delivery and returns</h2>
<p>Orders placed before 2 pm on a working day leave our warehouse the same day. Standard delivery within the EU takes two to four working days and is free over 40 euros.</p>
<p>We also ship to the United Kingdom, Switzerland and Norway. Deliveries outside the EU may be charged import duty and taxes on arrival, which are paid by the recipient.</p>
<p>If the kettle is not what you expected, send it back unused within 30 days of delivery for a full refund. We pay for the return label within the EU.</p>
<h2>Warranty</h2>
<p>The Aster 2 comes with a two year warranty covering the heating element and the switch. The silicone body is covered against tears for one year; wear from normal use is not covered.</p>
<h2>Care</h2>
<p>Descale the kettle once a month in hard water areas by boiling a mixture of water and a spoonful of citric acid, then rinsing twice. Do not put the kettle in the dishwasher, and always dry the base before folding it away.</p>
<p>Replacement cords and silicone bodies can be ordered from our spare parts page.</p>
<h2>Reviews</h2>
<div class="reviews"><p>"Boils water fast in hotel rooms. Took it to Tokyo and it worked fine after flipping the switch." Jonas, 5 stars</p><p>"Smells of silicone for the first few uses." Amira, 3 stars</p></div>
</div></main>`,
  ),
  questions: [
    { question: "How much water does the Aster 2 kettle hold?", answer: "0.8 litres, about three cups" },
    { question: "Will the kettle work in the United States on 110 volts?", answer: "set the kettle for 110 to 120 volt or 220 to 240 volt mains" },
    { question: "How long is the warranty on the kettle?", answer: "comes with a two year warranty covering the heating element" },
    { question: "Can I send the kettle back if I don't like it?", answer: "send it back unused within 30 days of delivery" },
  ],
};

const releaseNotes: LabelledPage = {
  path: "/passages/lumen-4.md",
  kind: "release notes (Markdown)",
  contentType: "text/markdown; charset=utf-8",
  body: `# Lumen 4.0 release notes

Lumen 4.0 is the first major release in two years. It brings a new plugin API, faster incremental builds and a smaller install, and it drops some old platforms.

## Breaking changes

Lumen 4 requires Node.js 20.11 or later; Node 18 reached its end of life and is no longer tested.

The \`lumen.config.js\` file is replaced by \`lumen.config.ts\`, which is type-checked when the build starts. Plain JavaScript configuration still loads but prints a deprecation warning.

Plugins written for the version 3 API do not load in version 4. The compatibility layer that wrapped them has been removed.

## New features

- A plugin API with typed hooks for every build phase.
- Incremental builds reuse the previous build's module graph, which makes rebuilds after a small change about four times faster on large projects.
- The install is 40 percent smaller because the bundled image optimiser is now an optional package.

## Fixes

- Watch mode no longer leaks memory when files are renamed repeatedly; the file watcher now releases old handles.
- Source maps point at the right column for files with Windows line endings.
- The dev server answers HEAD requests.
- Builds on machines with more than 64 cores no longer start too many worker threads.
- Error overlays show the plugin that threw, not only the file.

## Performance

Cold builds are about 15 percent faster than in 3.x, mostly because module resolution results are now cached on disk between runs. The cache lives in node_modules/.lumen and can be cleared with lumen clean.

Memory use during builds of large projects is down by roughly a quarter, since source maps are now generated lazily.

## Deprecations

The legacy CSS pipeline still works in 4.0 but will be removed in 5.0. Projects that rely on it should move to the PostCSS integration, which has been the default for new projects since 3.2.

The \`lumen serve --open\` flag is deprecated in favour of \`lumen dev --open\`.

## Upgrading from 3.x

Run npx lumen migrate in the project folder. It rewrites the configuration file as TypeScript, updates the plugin imports it recognises and lists the plugins that need a new version before the build will run.

Projects that use custom plugins should update them to the new hooks before upgrading. The plugin guide shows the old hook names next to the new ones.

If anything goes wrong, version 3.9 stays supported with security fixes until the end of next year.
`,
  questions: [
    { question: "Which Node.js version does Lumen 4 need?", answer: "Lumen 4 requires Node.js 20.11 or later" },
    { question: "How do I migrate my project from Lumen 3?", answer: "Run npx lumen migrate in the project folder" },
    { question: "Was the memory leak in watch mode fixed?", answer: "Watch mode no longer leaks memory when files are renamed repeatedly" },
    { question: "Do my old version 3 plugins still work?", answer: "Plugins written for the version 3 API do not load in version 4" },
  ],
};

const memo: LabelledPage = {
  path: "/passages/office-move.txt",
  kind: "plain text memo",
  contentType: "text/plain; charset=utf-8",
  body: `OFFICE MOVE - WHAT YOU NEED TO KNOW

From: Facilities team
To: All staff at the Canal Street office

As announced at the all-hands meeting, the company is moving to the Foundry building at 14 Mill Lane. This memo collects what has been decided so far.

The move takes place over the weekend of 20 and 21 June. The Canal Street office closes at 3 pm on Friday 19 June, and the Foundry opens for work on Monday 22 June at 8 am.

Please pack your desk into the numbered crates that will be delivered on 15 June. Label each crate with the sticker that shows your name and new desk number. Anything not packed by Friday lunchtime will be left behind.

The Foundry has no car park of its own. Staff who drive can use the Mill Lane multi-storey next door, where the company has reserved 60 spaces; permits are handed out at reception in the first week.

Desk phones are not coming with us. Everyone will use the softphone app on their laptop from Monday 22 June, and your extension number stays the same.

Bike racks and showers are on the ground floor, next to the post room. Lockers can be booked through the facilities portal.

The new building has three floors. Sales and support are on the first floor, engineering on the second, and finance, people and the management team on the third. A seating plan will be emailed on 10 June.

The kitchen on each floor has a coffee machine, a fridge and a dishwasher. Please label food you keep in the fridge; unlabelled food is thrown away on Friday afternoons.

IT will move all monitors, docking stations and keyboards. Take your laptop home with you on Friday 19 June and bring it on Monday. Do not pack laptops in the crates.

Access cards for the Foundry will be handed out at the Canal Street reception during the week of 15 June. Your old card stops working when Canal Street closes.

Meeting rooms in the new building are booked through the same calendar as now. There are twelve rooms, including two large rooms on the ground floor that can be joined for events.

Questions about the move go to the facilities team at extension 4410.
`,
  questions: [
    { question: "When is the office moving to the new building?", answer: "The move takes place over the weekend of 20 and 21 June." },
    { question: "Where can I park my car at the new office?", answer: "where the company has reserved 60 spaces" },
    { question: "Will I keep my desk phone after the move?", answer: "Desk phones are not coming with us." },
    { question: "How should I pack my things?", answer: "pack your desk into the numbered crates" },
  ],
};

const encyclopedia: LabelledPage = {
  path: "/passages/varrow-river.html",
  kind: "encyclopedia article",
  contentType: "text/html; charset=utf-8",
  body: html(
    "Varrow (river) - Open Encyclopedia",
    `<div id="content"><h1>Varrow (river)</h1>
<div class="infobox"><table><tr><th>Length</th><td>212 km</td></tr><tr><th>Source</th><td>Hallow Moor</td></tr><tr><th>Mouth</th><td>Varrow Firth</td></tr></table></div>
<p>The Varrow is a river in the northern uplands. It rises on Hallow Moor at a height of 540 metres and flows 212 kilometres south and east before it reaches the sea at the Varrow Firth.</p>
<h2>Course</h2>
<p>In its upper reaches the river runs through a narrow wooded gorge with a series of waterfalls, the highest of which, the Grey Mare's Tail, drops 31 metres. Below the village of Ashby the valley widens and the river meanders across a broad floodplain of meadows.</p>
<p>Its largest tributary is the Linnet, which joins it at Castleford and doubles its flow. The tidal limit is a weir at Harrowgate, 18 kilometres from the sea.</p>
<p>The Varrow drains a catchment of about 2,300 square kilometres, much of it upland sheep pasture and forestry. Heavy rain on the moor can raise the river by several metres within a day, and the towns of the lower valley have had flood defences since the 1950s.</p>
<h2>History</h2>
<p>Stone tools found on terraces above the floodplain show that people hunted along the river at least 9,000 years ago. A Roman road crossed the Varrow by a ford at Castleford, and coins from the second century have been found in the riverbed there.</p>
<p>The first bridge over the Varrow was a timber bridge built by the monks of Ashby Priory in 1184. It was replaced in stone in 1342, and three of its arches still carry a footpath across the river.</p>
<p>In the nineteenth century the lower river was lined with flax mills and dye works, and by 1900 it was among the most polluted rivers in the country.</p>
<p>During the Second World War the gorge was used to train soldiers in river crossings, and the concrete footings of a temporary bridge can still be seen below Ashby.</p>
<p>The last commercial mill closed in 1974. Several of the buildings have since been turned into flats and a museum of the linen industry.</p>
<h2>Ecology</h2>
<p>Since the mills closed the water quality has recovered. Atlantic salmon returned to spawn in the upper river in 1998, and brown trout, grayling and European eels are now common. Otters were recorded along the whole length of the river in a 2019 survey.</p>
<p>The floodplain meadows below Ashby are a nature reserve known for snake's head fritillaries, which flower there in late April.</p>
<p>Signal crayfish, an invasive species from North America, were first found in the lower river in 2006 and have since spread upstream to Ashby, where they compete with the native white-clawed crayfish.</p>
<h2>Economy</h2>
<p>The river supplies drinking water to about 300,000 people from a reservoir in the upper valley. Angling permits for the salmon beats are an important source of income for the estates along the middle river.</p>
<p>Tourism has grown since a long-distance footpath, the Varrow Way, was opened along the whole river in 2003. Walkers usually take eight to ten days to follow it from the source to the sea.</p>
<p>Small boats can navigate the river below Harrowgate, and the harbour at the mouth of the firth still handles timber and grain.</p>
<h2>Culture</h2>
<p>Every August the towns along the river hold the Varrow Raft Race, in which crews on home-built rafts paddle 14 kilometres from Ashby to Castleford. The race began in 1967 as a fund-raiser for the lifeboat station.</p>
<p>The river's gorge was painted by several landscape artists in the Romantic period, and a long poem about its source, The Moor Spring, was a set text in schools for decades.</p>
<h2>See also</h2>
<ul><li><a href="/wiki/Linnet">Linnet (river)</a></li><li><a href="/wiki/Firths">List of firths</a></li></ul>
</div>`,
  ),
  questions: [
    { question: "How long is the river Varrow?", answer: "flows 212 kilometres south and east" },
    { question: "When was the first bridge across the Varrow built?", answer: "The first bridge over the Varrow was a timber bridge built" },
    { question: "What kinds of fish live in the Varrow today?", answer: "brown trout, grayling and European eels are now common" },
    { question: "What race is held on the river every year?", answer: "hold the Varrow Raft Race" },
    { question: "Where does the Varrow get its water from and which river joins it?", answer: "Its largest tributary is the Linnet" },
  ],
};

export const PASSAGE_PAGES: readonly LabelledPage[] = [news, docs, library, recipe, forum, product, releaseNotes, memo, encyclopedia];

/** One paragraph of about 5,000 characters, a parrot (a surrogate pair) in every sentence: passages must cut it. */
export const ONE_PARAGRAPH = Array.from({ length: 60 }, (_, i) => `Entry ${i}: the lighthouse keeper \u{1F99C} logged storm number ${i} in the book by the lamp.`).join(" ");
