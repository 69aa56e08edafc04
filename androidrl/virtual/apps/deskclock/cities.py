"""The world clock's cities, as DeskClock's res/values/cities.xml and res/values-de/cities.xml list them.

Each line: the city id (``C1``..), its time zone, then the English index letter and name and the
German ones (an empty index is the name's first letter; AOSP's phonetic sort keys are left out).
"""

from __future__ import annotations

from dataclasses import dataclass

_CITIES = """\
C1|Africa/Abidjan|A|Abidjan||Abidjan
C2|Africa/Accra|A|Accra||Accra
C3|Africa/Addis_Ababa|A|Addis Ababa||Addis Abeba
C4|Africa/Algiers|A|Algiers||Algier
C5|Africa/Blantyre|B|Blantyre||Blantyre
C6|Africa/Brazzaville|B|Brazzaville||Brazzaville
C7|Africa/Cairo|C|Cairo||Kairo
C8|Africa/Casablanca|C|Casablanca||Casablanca
C9|Africa/Conakry|C|Conakry||Conakry
C10|Africa/Dakar|D|Dakar||Dakar
C11|Africa/Dar_es_Salaam|D|Dar es Salaam||Daressalam
C12|Africa/Djibouti|D|Djibouti||Dschibuti
C13|Africa/Freetown|F|Freetown||Freetown
C14|Africa/Gaborone|G|Gaborone||Gaborone
C15|Africa/Harare|H|Harare||Harare
C16|Africa/Johannesburg|J|Johannesburg||Johannesburg
C17|Africa/Kampala|K|Kampala||Kampala
C18|Africa/Khartoum|K|Khartoum||Khartum
C19|Africa/Kigali|K|Kigali||Kigali
C20|Africa/Kinshasa|K|Kinshasa||Kinshasa
C21|Africa/Lagos|L|Lagos||Lagos
C22|Africa/Maseru|M|Maseru||Maseru
C23|Africa/Mogadishu|M|Mogadishu||Mogadischu
C24|Africa/Nairobi|N|Nairobi||Nairobi
C25|Africa/Sao_Tome|S|São Tomé||São Tomé
C26|Africa/Timbuktu|T|Timbuktu||Timbuktu
C27|Africa/Tripoli|T|Tripoli||Tripolis
C28|Africa/Tunis|T|Tunis||Tunis
C29|America/Anchorage|A|Anchorage||Anchorage
C31|America/Aruba|A|Aruba||Aruba
C32|America/Asuncion|A|Asunción||Asunción
C33|America/Barbados|B|Barbados||Barbados
C34|America/Belize|B|Belize||Belize
C35|America/Bogota|B|Bogotá||Bogotá
C36|America/Buenos_Aires|B|Buenos Aires||Buenos Aires
C37|America/Cancun|C|Cancun||Cancun
C38|America/Caracas|C|Caracas||Caracas
C39|America/Cayman|C|Cayman||Kaimaninseln
C40|America/Chicago|C|Chicago||Chicago
C42|America/Curacao|C|Curaçao||Curaçao
C43|America/Dawson_Creek|D|Dawson Creek||Dawson Creek
C44|America/Denver|D|Denver||Denver
C45|America/Detroit|D|Detroit||Detroit
C46|America/Dominica|D|Dominica||Dominica
C47|America/Edmonton|E|Edmonton||Edmonton
C48|America/El_Salvador|E|El Salvador||El Salvador
C49|America/Fortaleza|F|Fortaleza||Fortaleza
C50|America/Grand_Turk|G|Grand Turk||Grand Turk
C51|America/Grenada|G|Grenada||Grenada
C52|America/Guatemala|G|Guatemala City|G|Guatemala-Stadt
C53|America/Guyana|G|Guyana||Guyana
C54|America/Halifax|H|Halifax||Halifax
C55|America/Havana|H|Havana||Havanna
C56|America/Indiana/Indianapolis|I|Indianapolis||Indianapolis
C57|America/Indiana/Knox|K|Knox||Knox
C58|America/Indiana/Marengo|M|Marengo||Marengo
C59|America/Indiana/Petersburg|P|Petersburg||Petersburg
C60|America/Indiana/Tell_City|T|Tell City||Tell City
C61|America/Indiana/Vevay|V|Vevay||Vevay
C62|America/Indiana/Vincennes|V|Vincennes||Vincennes
C63|America/Indiana/Winamac|W|Winamac||Winamac
C64|America/Jamaica|K|Kingston||Kingston
C65|America/La_Paz|N|Nuestra Señora de La Paz||Nuestra Señora de La Paz
C66|America/Lima|L|Lima||Lima
C67|America/Los_Angeles|L|Los Angeles||Los Angeles
C68|America/Louisville|L|Louisville||Louisville
C69|America/Managua|M|Managua||Managua
C70|America/Martinique|M|Martinique||Martinique
C71|America/Mendoza|M|Mendoza||Mendoza
C72|America/Metlakatla|M|Metlakatla||Metlakatla
C73|America/Mexico_City|M|Mexico City||Mexiko-Stadt
C74|America/Monterrey|M|Monterrey||Monterrey
C75|America/Montevideo|M|Montevideo||Montevideo
C76|America/Montreal|M|Montreal||Montreal
C77|America/Nassau|N|Nassau||Nassau
C78|America/New_York|N|New York||New York
C79|America/North_Dakota/Beulah|B|Beulah||Beulah
C80|America/North_Dakota/Center|C|Center||Center
C81|America/North_Dakota/New_Salem|N|New Salem||New Salem
C82|America/Panama|P|Panama||Panama
C83|America/Phoenix|P|Phoenix||Phoenix
C84|America/Port_of_Spain|P|Port of Spain||Port of Spain
C85|America/Port-au-Prince|P|Port-au-Prince||Port-au-Prince
C86|America/Puerto_Rico|P|Puerto Rico||Puerto Rico
C87|America/Santo_Domingo|S|Santo Domingo||Santo Domingo
C88|America/Sao_Paulo|S|São Paulo||São Paulo
C89|America/St_Johns|S|St. Johns||St. Johns
C90|America/St_Kitts|S|St. Kitts||St. Kitts
C91|America/St_Lucia|S|St. Lucia||St. Lucia
C92|America/St_Thomas|S|St. Thomas||St. Thomas
C93|America/Tijuana|T|Tijuana||Tijuana
C94|America/Toronto|T|Toronto||Toronto
C95|America/Vancouver|V|Vancouver||Vancouver
C96|America/Winnipeg|W|Winnipeg||Winnipeg
C97|Antarctica/South_Pole|S|South Pole||Südpol
C98|Arctic/Longyearbyen|L|Longyearbyen||Longyearbyen
C99|Asia/Almaty|A|Almaty||Almaty
C100|Asia/Amman|A|Amman||Amman
C101|Asia/Anadyr|A|Anadyr||Anadyr
C102|Asia/Aqtau|A|Aqtau||Aqtau
C103|Asia/Baghdad|B|Baghdad||Bagdad
C104|Asia/Bahrain|B|Bahrain||Bahrain
C105|Asia/Baku|B|Baku||Baku
C106|Asia/Bangkok|B|Bangkok||Bangkok
C107|Asia/Beirut|B|Beirut||Beirut
C108|Asia/Calcutta|K|Kolkata|K|Kalkutta
C109|Asia/Damascus|D|Damascus||Damaskus
C110|Asia/Dhaka|D|Dhaka||Dhaka
C111|Asia/Dubai|D|Dubai||Dubai
C112|Asia/Gaza|G|Gaza||Gaza
C113|Asia/Hebron|H|Hebron||Hebron
C114|Asia/Ho_Chi_Minh|H|Ho Chi Minh||Ho-Chi-Minh-Stadt
C115|Asia/Hong_Kong|H|Hong Kong||Hongkong
C117|Asia/Jakarta|J|Jakarta||Jakarta
C118|Asia/Jerusalem|J|Jerusalem||Jerusalem
C119|Asia/Kabul|K|Kabul||Kabul
C120|Asia/Karachi|K|Karachi||Karatschi
C121|Asia/Kathmandu|K|Kathmandu||Kathmandu
C122|Asia/Kuala_Lumpur|K|Kuala Lumpur||Kuala Lumpur
C123|Asia/Kuwait|K|Kuwait||Kuwait
C124|Asia/Macau|M|Macau||Macau
C125|Asia/Manila|M|Manila||Manila
C126|Asia/Muscat|M|Muscat||Maskat
C127|Asia/Phnom_Penh|P|Phnom Penh||Phnom Penh
C128|Asia/Pyongyang|P|Pyongyang||Pjöngjang
C130|Asia/Rangoon|R|Rangoon||Rangun
C131|Asia/Riyadh|R|Riyadh||Riad
C133|Asia/Seoul|S|Seoul||Seoul
C134|Asia/Shanghai|S|Shanghai||Shanghai
C135|Asia/Singapore|S|Singapore||Singapur
C136|Asia/Taipei|T|Taipei||Taipei
C137|Asia/Tehran|T|Tehran||Teheran
C138|Asia/Tel_Aviv|T|Tel Aviv||Tel Aviv
C139|Asia/Tokyo|T|Tokyo||Tokio
C140|Asia/Ulaanbaatar|U|Ulaanbaatar||Ulan-Bator
C141|Atlantic/Bermuda|B|Bermuda||Bermuda
C142|Atlantic/Canary|C|Canary||Kanarische Inseln
C143|Atlantic/Cape_Verde|C|Cape Verde||Kap Verde
C144|Atlantic/Reykjavik|R|Reykjavik||Reykjavik
C145|Atlantic/Stanley|S|Stanley||Stanley
C146|Australia/Adelaide|A|Adelaide||Adelaide
C147|Australia/Brisbane|B|Brisbane||Brisbane
C148|Australia/Canberra|C|Canberra||Canberra
C149|Australia/Darwin|D|Darwin||Darwin
C150|Australia/Melbourne|M|Melbourne||Melbourne
C151|Australia/NSW|N|New South Wales||New South Wales
C152|Australia/Perth|P|Perth||Perth
C153|Australia/Queensland|Q|Queensland||Queensland
C154|Australia/Sydney|S|Sydney||Sydney
C155|Australia/Victoria|V|Victoria||Victoria
C156|Canada/Newfoundland|N|Newfoundland||Neufundland
C157|Canada/Saskatchewan|S|Saskatchewan||Saskatchewan
C158|Chile/EasterIsland|E|Easter Island||Osterinsel
C159|Europe/Amsterdam|A|Amsterdam||Amsterdam
C160|Europe/Andorra|A|Andorra||Andorra
C161|Europe/Athens|A|Athens||Athen
C162|Europe/Belfast|B|Belfast||Belfast
C163|Europe/Belgrade|B|Belgrade||Belgrad
C164|Europe/Berlin|B|Berlin||Berlin
C165|Europe/Bratislava|B|Bratislava||Bratislava
C166|Europe/Brussels|B|Brussels||Brüssel
C167|Europe/Bucharest|B|Bucharest||Bukarest
C168|Europe/Budapest|B|Budapest||Budapest
C169|Europe/Chisinau|C|Chisinau||Chisinau
C170|Europe/Copenhagen|C|Copenhagen||Kopenhagen
C171|Europe/Dublin|D|Dublin||Dublin
C172|Europe/Gibraltar|G|Gibraltar||Gibraltar
C173|Europe/Helsinki|H|Helsinki||Helsinki
C174|Europe/Isle_of_Man|I|Isle of Man||Isle of Man
C175|Europe/Istanbul|I|Istanbul||Istanbul
C176|Europe/Kiev|K|Kiev||Kiew
C177|Europe/Lisbon|L|Lisbon||Lissabon
C178|Europe/London|L|London||London
C179|Europe/Luxembourg|L|Luxembourg||Luxemburg
C180|Europe/Madrid|M|Madrid||Madrid
C181|Europe/Malta|M|Malta||Malta
C182|Europe/Minsk|M|Minsk||Minsk
C183|Europe/Monaco|M|Monaco||Monaco
C184|Europe/Moscow|M|Moscow||Moskau
C185|Europe/Oslo|O|Oslo||Oslo
C186|Europe/Paris|P|Paris||Paris
C187|Europe/Prague|P|Prague||Prag
C188|Europe/Riga|R|Riga||Riga
C189|Europe/Rome|R|Rome||Rom
C190|Europe/San_Marino|S|San Marino||San Marino
C191|Europe/Sarajevo|S|Sarajevo||Sarajevo
C192|Europe/Simferopol|S|Simferopol||Simferopol
C193|Europe/Skopje|S|Skopje||Skopje
C194|Europe/Sofia|S|Sofia||Sofia
C195|Europe/Stockholm|S|Stockholm||Stockholm
C196|Europe/Tallinn|T|Tallinn||Tallinn
C197|Europe/Vatican|V|Vatican||Vatikanstadt
C198|Europe/Vienna|V|Vienna||Wien
C199|Europe/Vilnius|V|Vilnius||Vilnius
C200|Europe/Warsaw|W|Warsaw||Warschau
C201|Europe/Zagreb|Z|Zagreb||Zagreb
C202|Europe/Zurich|Z|Zurich||Zürich
C203|Indian/Antananarivo|A|Antananarivo||Antananarivo
C204|Indian/Maldives|M|Maldives||Malediven
C205|Indian/Mauritius|M|Mauritius||Mauritius
C206|Pacific/Auckland|A|Auckland||Auckland
C207|Pacific/Fiji|F|Fiji||Fidschi
C208|Pacific/Guam|G|Guam||Guam
C209|Pacific/Honolulu|H|Honolulu||Honolulu
C210|Pacific/Kiritimati|K|Kiritimati||Kiritimati
C211|Pacific/Noumea|N|Noumea||Noumea
C214|America/Antigua|A|Antigua||Antigua
C215|America/Chicago|A|Austin||Austin
C216|America/New_York|B|Boston||Boston
C217|America/Denver|C|Calgary||Calgary
C218|America/New_York|C|Columbus||Columbus
C219|America/Chicago|D|Dallas||Dallas
C220|America/New_York|K|Knoxville||Knoxville
C221|America/Chicago|M|Memphis||Memphis
C222|America/New_York|M|Miami||Miami
C223|America/Chicago|M|Minneapolis||Minneapolis
C224|America/New_York|O|Ottawa||Ottawa
C225|America/New_York|P|Philadelphia||Philadelphia
C226|America/Los_Angeles|P|Portland||Portland
C227|America/Los_Angeles|S|San Diego||San Diego
C228|America/Los_Angeles|S|San Francisco||San Francisco
C229|America/Denver|S|Salt Lake City||Salt Lake City
C230|America/Los_Angeles|S|San Jose||San Jose
C231|America/Guatemala|S|San Salvador||San Salvador
C232|America/Los_Angeles|S|Seattle||Seattle
C233|America/Chicago|S|St. Louis||St. Louis
C234|America/New_York|W|Washington D.C.||Washington D.C.
C235|America/Chicago|H|Houston||Houston
C236|America/Chicago|S|San Antonio||San Antonio
C237|America/New_York|J|Jacksonville||Jacksonville
C238|America/New_York|B|Baltimore||Baltimore
C239|America/Chicago|N|Nashville||Nashville
C240|America/Chicago|M|Milwaukee||Milwaukee
C241|America/Chicago|O|Oklahoma City||Oklahoma City
C242|America/Los_Angeles|L|Las Vegas||Las Vegas
C243|America/Denver|A|Albuquerque||Albuquerque
C244|MST|T|Tucson||Tucson
C245|America/Los_Angeles|S|Sacramento||Sacramento
C246|America/New_York|A|Atlanta||Atlanta
C247|America/New_York|C|Cleveland||Cleveland
C248|America/Chicago|N|New Orleans||New Orleans
C249|America/New_York|T|Tampa||Tampa
C250|America/New_York|P|Pittsburgh||Pittsburgh
C251|America/New_York|C|Cincinnati||Cincinnati
C252|America/Los_Angeles|M|Mountain View||Mountain View
C253|America/Los_Angeles|R|Reno||Reno
C254|America/Los_Angeles|B|Black Rock City||Black Rock City
C255|Asia/Riyadh|D|Doha||Doha
C256|Asia/Shanghai|B|Beijing||Peking
C257|Asia/Kolkata|M|Mumbai||Mumbai
C258|Asia/Kolkata|D|Delhi||Delhi
C259|Asia/Tokyo|O|Osaka||Osaka
C260|Asia/Karachi|L|Lahore||Lahore
C261|Asia/Riyadh|S|Sana'a||Sanaa
C262|Europe/Madrid|B|Barcelona||Barcelona
C263|Europe/Berlin|M|Munich||München
C264|Europe/Rome|M|Milan||Mailand
C265|Europe/Berlin|F|Frankfurt||Frankfurt
C266|Asia/Bangkok|H|Hanoi||Hanoi
C267|Europe/Istanbul|A|Ankara||Ankara
C268|Asia/Kolkata|B|Bangalore||Bangalore
C269|America/Sao_Paulo|B|Brasília||Brasília
C270|Africa/Johannesburg|C|Cape Town||Kapstadt
C271|Asia/Karachi|I|Islamabad||Islamabad
C272|America/Sao_Paulo|R|Rio de Janeiro||Rio de Janeiro
C273|America/Detroit|A|Ann Arbor||Ann Arbor
C274|America/Denver|B|Boulder||Boulder
C275|America/New_York|C|Cambridge||Cambridge
C276|America/Los_Angeles|K|Kirkland||Kirkland
C277|America/Chicago|M|Madison||Madison
C278|Asia/Shanghai|G|Guangzhou||Guangzhou
C279|Asia/Kolkata|H|Hyderabad||Hyderabad
C280|America/New_York|R|Reston||Reston
C281|America/Sao_Paulo|B|Belo Horizonte||Belo Horizonte
C282|America/Santiago|S|Santiago||Santiago
C283|Africa/Monrovia|M|Monrovia||Monrovia
C284|Asia/Colombo|C|Colombo||Colombo
C285|America/Chihuahua|C|Chihuahua||Chihuahua
C286|America/Sao_Paulo|S|Salvador||Salvador
C287|Asia/Kolkata|G|Gurgaon||Gurgaon
C288|Europe/London|M|Manchester||Manchester
C290|Europe/Moscow|S|St. Petersburg||St. Petersburg
C291|Europe/Warsaw|K|Kraków||Krakau
C292|Europe/Warsaw|W|Wroclaw||Breslau
C293|Europe/Berlin|H|Hamburg||Hamburg
C294|Europe/Bucharest|O|Oulu||Oulu
C295|Asia/Jerusalem|H|Haifa||Haifa
C296|America/Puerto_Rico|S|San Juan||San Juan
C297|America/Tegucigalpa|T|Tegucigalpa||Tegucigalpa
C298|America/Paramaribo|P|Paramaribo||Paramaribo
C299|America/Panama|Q|Quito||Quito
C300|Europe/Ljubljana|L|Ljubljana||Ljubljana
C301|Asia/Ashgabat|A|Ashgabat|A|Aşgabat
C302|Africa/Asmara|A|Asmara|A|Asmara
C303|Asia/Brunei|B|Bandar Seri Begawan|B|Bandar Seri Begawan
C304|Africa/Bangui|B|Bangui|B|Bangui
C305|Africa/Banjul|B|Banjul|B|Banjul
C306|Asia/Bishkek|B|Bishkek|B|Bischkek
C307|Africa/Bissau|B|Bissau|B|Bissau
C308|Africa/Bujumbura|B|Bujumbura|B|Bujumbura
C309|Asia/Dili|D|Dili|D|Dili
C310|Asia/Dushanbe|D|Dushanbe|D|Duschanbe
C311|Pacific/Funafuti|F|Funafuti|F|Funafuti
C312|Pacific/Guadalcanal|H|Honiara|H|Honiara
C313|Africa/Juba|J|Juba|J|Juba
C314|America/St_Vincent|K|Kingstown|K|Kingstown
C315|Africa/Libreville|L|Libreville|L|Libreville
C316|Africa/Lome|L|Lomé|L|Lomé
C317|Africa/Luanda|L|Luanda|L|Luanda
C318|Africa/Lusaka|L|Lusaka|L|Lusaka
C319|Pacific/Majuro|M|Majuro|M|Majuro
C320|Africa/Malabo|M|Malabo|M|Malabo
C321|Africa/Maputo|M|Maputo|M|Maputo
C322|Africa/Mbabane|M|Mbabane|M|Mbabane
C323|Indian/Comoro|M|Moroni|M|Moroni
C324|Africa/Ndjamena|N|N'Djamena|N|N'Djamena
C325|Pacific/Palau|N|Ngerulmud|N|Ngerulmud
C326|Africa/Niamey|N|Niamey|N|Niamey
C327|Europe/Nicosia|N|Nicosia|N|Nicosia
C328|Africa/Nouakchott|N|Nouakchott|N|Nouakchott
C329|Pacific/Tongatapu|N|Nuku'alofa|N|Nuku'alofa
C330|Africa/Ouagadougou|O|Ouagadougou|O|Ouagadougou
C331|Pacific/Noumea|P|Palikir|P|Palikir
C332|America/Lower_Princes|P|Philipsburg|P|Philipsburg
C333|Europe/Podgorica|P|Podgorica|P|Podgorica
C334|Pacific/Palau|P|Port Moresby|P|Port Moresby
C335|Pacific/Efate|P|Port Vila|P|Port Vila
C336|Africa/Porto-Novo|P|Porto-Novo|P|Porto-Novo
C337|Europe/Belgrade|P|Priština|P|Priština
C338|America/Dominica|R|Roseau|R|Roseau
C339|Asia/Tashkent|T|Tashkent|T|Taschkent
C340|Asia/Tbilisi|T|Tbilisi|T|Tiflis
C341|Asia/Thimphu|T|Thimphu|T|Thimphu
C342|Europe/Tirane|T|Tirana|T|Tirana
C343|Europe/Vaduz|V|Vaduz|V|Vaduz
C344|Asia/Vientiane|V|Vientiane|V|Vientiane
C345|Africa/Windhoek|W|Windhoek|W|Windhuk
C346|Africa/Douala|Y|Yaoundé|J|Jaunde
C347|Pacific/Nauru|Y|Yaren District|D|Distrikt Yaren
C348|Asia/Yerevan|Y|Yerevan|Y|Eriwan
"""


@dataclass(frozen=True)
class City:
    """A city of the world clock (DeskClock's ``City``): its id, time zone, and names by language."""

    id: str
    timezone: str
    names: dict[str, tuple[str, str]]  # language -> (index letter, name)

    def name(self, language: str) -> str:
        """Its name in ``language`` (English when there is no such translation)."""
        return self.names.get(language, self.names["en"])[1]

    def index(self, language: str) -> str:
        """The letter of the list's section it is in (``City.getIndexString``)."""
        index, name = self.names.get(language, self.names["en"])
        return index or name[:1].upper()


def _parse() -> dict[str, City]:
    cities = {}
    for line in _CITIES.splitlines():
        city_id, timezone, index_en, name_en, index_de, name_de = line.split("|")
        cities[city_id] = City(city_id, timezone, {"en": (index_en, name_en), "de": (index_de, name_de)})
    return cities


#: Every city, by id, in cities.xml's order.
CITIES: dict[str, City] = _parse()
