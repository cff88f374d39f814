/**
 * The words the synthetic network is made of: names, bios, places, topics and sentence fragments in several
 * languages. Plain data (lists written as `|`-separated strings to stay compact), so the generators stay
 * short and the network reads like a real one.
 */

const list = (s: string): readonly string[] => s.split('|');

export const FIRST_NAMES = list(
  'Ada|Alan|Alex|Alice|Amara|Ana|Andrea|Aylin|Ben|Bianca|Carla|Carlos|Chen|Chloe|Dan|Daniela|David|Deniz|Diego|' +
    'Elena|Emma|Emre|Eva|Felix|Fatima|Gabriel|Grace|Hana|Hugo|Ines|Isaac|Ivan|Jade|James|Jonas|Julia|Kai|Kenji|' +
    'Lara|Leo|Lina|Lucas|Luca|Maya|Marta|Mateo|Mehmet|Mia|Nadia|Noah|Nora|Omar|Oscar|Paula|Pedro|Priya|Quinn|' +
    'Rafael|Rosa|Ryo|Sara|Sam|Sofia|Tariq|Theo|Uma|Valentina|Victor|Wei|Yara|Yuki|Zeynep|Zoe',
);

export const LAST_NAMES = list(
  'Adams|Alvarez|Becker|Bianchi|Costa|Demir|Dubois|Garcia|Hoffmann|Ito|Jensen|Kaya|Kim|Kowalski|Lee|Lopez|' +
    'Martin|Meyer|Moreau|Nakamura|Nguyen|Novak|Okafor|Olsen|Patel|Perez|Rossi|Santos|Schmidt|Silva|Smith|Suzuki|' +
    'Tanaka|Taylor|Weber|Wilson|Yilmaz|Zhang',
);

export const HANDLE_WORDS = list(
  'dev|codes|writes|builds|travels|eats|runs|plays|draws|reads|hq|labs|daily|news|real|official|the|its|just|' +
    'hey|im|ok|tech|art|fit|fan|pod|cast',
);

export const BIO_ROLES = list(
  'Software engineer|Product designer|Writer|Photographer|Founder|Data scientist|Teacher|Journalist|Researcher|' +
    'Indie hacker|Nurse|Chef|Student|Musician|Marketer|Investor|Open source maintainer|Illustrator|Podcaster|Coach',
);

export const BIO_INTERESTS = list(
  'coffee|climbing|football|jazz|sci-fi|cats|dogs|running|chess|gardening|baking|startups|typography|open data|' +
    'bikes|film photography|board games|hiking|anime|F1',
);

export const BIO_SUFFIXES = list(
  'Views my own.|He/him.|She/her.|They/them.|Building in public.|DMs open.|Est. 1990.||Opinions are mine.|' +
    'Always learning.|',
);

export const LOCATIONS = list(
  'San Francisco, CA|New York, NY|London, England|Berlin, Germany|Paris, France|Madrid, Spain|Istanbul, Türkiye|' +
    'Tokyo, Japan|São Paulo, Brazil|Mexico City|Toronto, Canada|Lagos, Nigeria|Mumbai, India|Sydney, Australia|' +
    'Amsterdam|Lisbon, Portugal|Seoul|Buenos Aires|Milano, Italia|Remote|Earth|the internet|Austin, TX|Dublin, Ireland',
);

export const SOURCES = list(
  'Twitter for iPhone|Twitter for Android|Twitter Web App|TweetDeck|Buffer|Twitter for iPad',
);

/** A topic: its hashtags, cashtags and words; tweets and trends draw from the same topics. */
export interface Topic {
  readonly name: string;
  readonly hashtags: readonly string[];
  readonly cashtags: readonly string[];
  readonly words: readonly string[];
}

const topic = (name: string, hashtags: string, cashtags: string, words: string): Topic => ({
  name,
  hashtags: list(hashtags),
  cashtags: cashtags ? list(cashtags) : [],
  words: list(words),
});

export const TOPICS: readonly Topic[] = [
  topic(
    'Technology',
    'AI|OpenSource|TypeScript|WebDev|DevOps|Rust|MachineLearning',
    'NVDA|MSFT|GOOGL|AAPL',
    'release|framework|compiler|benchmark|deploy|database|model|API|bug|refactor',
  ),
  topic(
    'Sports',
    'ChampionsLeague|NBA|F1|WorldCup|Tennis|Marathon',
    '',
    'match|goal|season|transfer|final|race|coach|lineup|derby|record',
  ),
  topic(
    'Business',
    'Startups|Markets|Economy|Earnings|VentureCapital',
    'TSLA|AMZN|SPY|META',
    'revenue|funding|launch|growth|quarter|hiring|pricing|customers|roadmap',
  ),
  topic(
    'Crypto',
    'Bitcoin|Ethereum|Web3|DeFi',
    'BTC|ETH|SOL',
    'wallet|block|halving|chain|token|rally|dip|staking',
  ),
  topic(
    'Entertainment',
    'NowPlaying|Oscars|Netflix|Gaming|Anime|BookTwitter',
    '',
    'album|trailer|episode|concert|premiere|soundtrack|novel|sequel|playlist',
  ),
  topic(
    'Science',
    'Space|Climate|Physics|Biology|Astronomy',
    '',
    'telescope|experiment|paper|launch|orbit|data|study|sample|discovery',
  ),
  topic(
    'Food',
    'Foodie|Coffee|Vegan|Baking|StreetFood',
    '',
    'recipe|coffee|bread|dinner|brunch|espresso|ramen|tacos',
  ),
  topic(
    'Travel',
    'Travel|Wanderlust|Photography|Hiking|Sunset',
    '',
    'flight|trip|beach|mountains|train|museum|sunset|hostel|passport',
  ),
];

/** Sentence fragments of a language: a tweet is an opener, a middle on a topic word (`{w}`), and a closer. */
export interface LanguagePack {
  readonly openers: readonly string[];
  readonly middles: readonly string[];
  readonly closers: readonly string[];
  readonly replies: readonly string[];
}

const pack = (openers: string, middles: string, closers: string, replies: string): LanguagePack => ({
  openers: list(openers),
  middles: list(middles),
  closers: list(closers),
  replies: list(replies),
});

export const LANGUAGES: Readonly<Record<string, LanguagePack>> = {
  en: pack(
    'Just shipped|Hot take:|Thinking about|Can we talk about|Today I learned about|Big news:|Reminder:|' +
      'Unpopular opinion:|Finally tried|Quick thread on|Nobody tells you about|Loving',
    'the new {w}|how the {w} changes everything|why every {w} needs a plan|a better {w}|the {w} we saw this week|' +
      'my first {w}|the {w} everyone is talking about|what makes a great {w}',
    'and I am not going back.|Thoughts?|What a week.|More soon.|Worth it.|Who else?|Details below.|' +
      'Still thinking about it.|Highly recommend.|Let me know what you think!',
    'Totally agree|This is great|Interesting take|Not sure about that|Congrats!|Thanks for sharing|Same here|' +
      'Love this|Count me in|Huge if true|Great thread',
  ),
  es: pack(
    'Acabo de probar|Opinión impopular:|Pensando en|Hoy aprendí sobre|Gran noticia:|Recordatorio:|Por fin probé',
    'el nuevo {w}|cómo el {w} lo cambia todo|un mejor {w}|mi primer {w}|el {w} de esta semana',
    '¿Qué opinan?|Qué semana.|Muy recomendable.|Más pronto.|Vale la pena.',
    'Totalmente de acuerdo|Me encanta|Interesante|Felicidades|Gracias por compartir',
  ),
  fr: pack(
    "Je viens de tester|Avis impopulaire :|Je pense à|Aujourd'hui j'ai appris|Grande nouvelle :",
    'le nouveau {w}|comment le {w} change tout|un meilleur {w}|mon premier {w}',
    "Qu'en pensez-vous ?|Quelle semaine.|Je recommande.|À suivre.",
    "Tout à fait d'accord|Super|Intéressant|Bravo|Merci du partage",
  ),
  de: pack(
    'Gerade ausprobiert:|Unpopuläre Meinung:|Ich denke über|Heute gelernt:|Große Neuigkeiten:',
    'das neue {w}|wie das {w} alles ändert|ein besseres {w}|mein erstes {w}',
    'Was meint ihr?|Was für eine Woche.|Sehr empfehlenswert.|Mehr bald.',
    'Stimme völlig zu|Klasse|Interessant|Glückwunsch|Danke fürs Teilen',
  ),
  pt: pack(
    'Acabei de testar|Opinião impopular:|Pensando em|Hoje aprendi sobre|Grande novidade:',
    'o novo {w}|como o {w} muda tudo|um {w} melhor|meu primeiro {w}',
    'O que acham?|Que semana.|Recomendo muito.|Mais em breve.',
    'Concordo totalmente|Adorei|Interessante|Parabéns|Obrigado por compartilhar',
  ),
  ja: pack(
    '今日は|ついに|新しい|みんなに聞きたい:|速報:',
    '{w}を試してみた|{w}について考えている|{w}が最高だった|{w}の話をしよう',
    'どう思う?|また後で。|おすすめです。|楽しかった！',
    'わかる|すごい|おめでとう|ありがとう|同意です',
  ),
  tr: pack(
    'Yeni denedim:|Popüler olmayan görüş:|Bugün öğrendim:|Büyük haber:|Hatırlatma:',
    'yeni {w}|{w} her şeyi değiştiriyor|daha iyi bir {w}|ilk {w} deneyimim',
    'Ne düşünüyorsunuz?|Ne hafta ama.|Kesinlikle tavsiye ederim.|Devamı gelecek.',
    'Kesinlikle katılıyorum|Harika|İlginç|Tebrikler|Paylaştığın için teşekkürler',
  ),
  it: pack(
    'Ho appena provato|Opinione impopolare:|Sto pensando a|Oggi ho imparato|Grande notizia:',
    'il nuovo {w}|come il {w} cambia tutto|un {w} migliore|il mio primo {w}',
    'Che ne pensate?|Che settimana.|Consigliatissimo.|A presto.',
    'Sono d’accordo|Bellissimo|Interessante|Complimenti|Grazie per la condivisione',
  ),
};

/** Languages and how often an account writes in each. */
export const LANGUAGE_CODES = ['en', 'es', 'ja', 'pt', 'fr', 'de', 'tr', 'it'] as const;
export const LANGUAGE_WEIGHTS = [62, 10, 7, 6, 5, 4, 3, 3] as const;

export const LINK_DOMAINS = list(
  'blog.example.com|news.example.org|docs.example.dev|shop.example.com|video.example.net|example.substack.com',
);

export const LIST_NAMES = list(
  'Tech people|Designers|Must follow|News|Founders|Friends|Sports desk|Crypto watch|Open source|Science|' +
    'Favourites|Writers|Photographers|Local',
);

export const COMMUNITY_NAMES = list(
  'TypeScript Developers|Indie Hackers|Football Fans|Film Photography|Home Bakers|Space Nerds|Crypto Traders|' +
    'Remote Workers|Book Club|Machine Learning|Runners|Board Games',
);

export const SPACE_TITLES = list(
  'Weekly dev chat|Ask me anything|Market open|Match day live|Founders office hours|Late night music|' +
    'Space launch watch party',
);

export const BOOKMARK_FOLDERS = list('Read later|Recipes|Dev|Inspiration|Threads');

export const JOB_TITLES = list(
  'Senior Software Engineer|Product Designer|Data Analyst|Engineering Manager|Marketing Lead|' +
    'Customer Success Manager|Site Reliability Engineer|Content Writer|Machine Learning Engineer|' +
    'Sales Development Representative|Staff Backend Engineer|Intern, Software Engineering',
);

export const COMPANY_NAMES = list('Acme Corp|Globex|Initech|Umbrella Labs|Hooli|Stark Industries|Wayne Tech');

/** Regional trend phrases per `woeid` (spec 8.3), mixed with the topics' hashtags. */
export const TREND_PHRASES: Readonly<Record<number, readonly string[]>> = {
  1: list('Happy Friday|Breaking News|World Cup|New Album|Earthquake'),
  23424977: list('Super Bowl|Thanksgiving|NFL Sunday|Wall Street'),
  23424975: list('Premier League|Bank Holiday|Glastonbury|Tube strike'),
  23424775: list('Hockey Night|Canada Day|Maple Leafs'),
  23424900: list('Liga MX|Día de Muertos|CDMX'),
  23424768: list('Brasileirão|Carnaval|BBB'),
  23424969: list('Süper Lig|Bayram|İstanbul'),
  23424950: list('LaLiga|El Clásico|Madrid'),
  23424829: list('Bundesliga|Oktoberfest|Bahn Streik'),
  23424819: list('Ligue 1|Tour de France|Paris'),
  23424856: list('プロ野球|地震|新作'),
  23424848: list('IPL|Cricket|Bollywood'),
};
