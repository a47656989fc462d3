import type { Rng } from './random';

export const FEMALE_NAMES = [
  'Ana',
  'Maria',
  'Beatriz',
  'Inês',
  'Mariana',
  'Joana',
  'Sofia',
  'Catarina',
  'Rita',
  'Carolina',
  'Leonor',
  'Matilde',
  'Marta',
  'Sara',
  'Teresa',
  'Helena',
  'Filipa',
  'Patrícia',
  'Cláudia',
  'Luísa',
];
export const MALE_NAMES = [
  'João',
  'José',
  'António',
  'Francisco',
  'Pedro',
  'Tiago',
  'Miguel',
  'Rodrigo',
  'Duarte',
  'Gonçalo',
  'Rui',
  'Nuno',
  'Ricardo',
  'Bruno',
  'André',
  'Diogo',
  'Tomás',
  'Manuel',
  'Luís',
  'Vasco',
];
export const SURNAMES = [
  'Silva',
  'Santos',
  'Ferreira',
  'Pereira',
  'Oliveira',
  'Costa',
  'Rodrigues',
  'Martins',
  'Jesus',
  'Sousa',
  'Fernandes',
  'Gonçalves',
  'Gomes',
  'Lopes',
  'Marques',
  'Alves',
  'Almeida',
  'Ribeiro',
  'Pinto',
  'Carvalho',
  'Teixeira',
  'Moreira',
  'Correia',
  'Mendes',
  'Nunes',
  'Soares',
  'Vieira',
  'Monteiro',
  'Cardoso',
  'Rocha',
];
export const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

export const INTEREST_AREAS = [
  'Cardiologia',
  'Dermatologia',
  'Pediatria',
  'Psiquiatria',
  'Psicologia',
  'Ginecologia',
  'Obstetrícia',
  'Ortopedia',
  'Oftalmologia',
  'Otorrinolaringologia',
  'Neurologia',
  'Endocrinologia',
  'Nutrição',
  'Medicina Geral e Familiar',
  'Medicina Interna',
  'Urologia',
  'Gastroenterologia',
  'Pneumologia',
  'Reumatologia',
  'Medicina Desportiva',
  'Saúde Mental',
  'Alergologia',
  'Medicina do Viajante',
  'Geriatria',
];
export const WORKPLACES = [
  'Hospital de Santa Maria',
  'Hospital de São João',
  'Hospital da Luz',
  'CUF Descobertas',
  'Hospital de Braga',
  'Centro Hospitalar de Coimbra',
  'USF Arco Íris',
  'Clínica do Dragão',
  'Hospital Lusíadas Porto',
  'Hospital Garcia de Orta',
];

/** Portuguese banks: code for the IBAN and their BIC. */
export const BANKS = [
  { code: '0035', bic: 'CGDIPTPL' },
  { code: '0033', bic: 'BCOMPTPL' },
  { code: '0010', bic: 'BBPIPTPL' },
  { code: '0036', bic: 'MPIOPTPL' },
  { code: '0018', bic: 'TOTAPTPL' },
  { code: '0007', bic: 'BESCPTPL' },
] as const;

export function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

export function slug(text: string): string {
  return stripAccents(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** NIF: 9 digits, the last a mod-11 check digit over the first 8 (weights 9…2). */
export function nif(rng: Rng, firstDigit: '1' | '2' | '5'): string {
  const base = firstDigit + rng.digits(7);
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(base[i]) * (9 - i);
  const r = sum % 11;
  return base + String(r < 2 ? 0 : 11 - r);
}

function mod97(digits: string): number {
  let r = 0;
  for (const ch of digits) r = (r * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return r;
}

/**
 * PT IBAN: bank(4) branch(4) account(11) + NIB check digits (98 − n×100 mod 97), then the IBAN
 * check digits over BBAN + "PT00" (P=25, T=29); for valid NIBs these are always 50.
 */
export function portugueseIban(rng: Rng, bankCode: string): string {
  const body = bankCode + rng.digits(4) + rng.digits(11);
  const nibCheck = String(98 - mod97(`${body}00`)).padStart(2, '0');
  const bban = body + nibCheck;
  const ibanCheck = String(98 - mod97(`${bban}252900`)).padStart(2, '0');
  return `PT${ibanCheck}${bban}`;
}

/** The same IBAN with a wrong NIB check digit: what a typo in the last digits looks like. */
export function corruptIban(iban: string): string {
  const last = Number(iban.at(-1));
  return iban.slice(0, -1) + String((last + 3) % 10);
}

export function mobilePhone(rng: Rng): string {
  return `9${rng.pick(['1', '2', '3', '6'])}${rng.digits(7)}`;
}

export const CUSTOMER_LINES = [
  'Boa tarde, doutor(a). Tenho dores de cabeça frequentes há duas semanas.',
  'Olá, o meu filho tem febre desde ontem à noite, 38,5 ºC.',
  'Bom dia. Gostaria de uma segunda opinião sobre estas análises.',
  'Tenho uma erupção na pele que não passa com o creme que estava a usar.',
  'Posso tomar ibuprofeno juntamente com o antibiótico?',
  'Obrigado pela resposta rápida!',
  'Envio em anexo o relatório do exame.',
  'Desde quando devo ficar preocupado com a tensão arterial?',
  'Consegue ligar-me ao fim da tarde?',
  'Sinto-me bastante melhor, muito obrigada.',
];
export const PROFESSIONAL_LINES = [
  'Bom dia. Pode descrever melhor os sintomas e há quanto tempo começaram?',
  'Recomendo repouso, hidratação e vigiar a temperatura de 6 em 6 horas.',
  'Vi as análises: os valores estão dentro do normal, exceto a vitamina D.',
  'Sugiro marcar uma consulta presencial para observação.',
  'Pode tomar, mas com intervalo de pelo menos 4 horas.',
  'Envio a receita em anexo.',
  'Se os sintomas persistirem mais de 48 horas, volte a contactar.',
  'Vamos falar por chamada para esclarecer melhor.',
  'Fico ao dispor para qualquer dúvida.',
  'Deixo um resumo das recomendações no fim do caso.',
];
export const CASE_SUMMARIES = [
  'Cefaleia de tensão; recomendadas medidas gerais e reavaliação se agravamento.',
  'Síndrome febril em idade pediátrica; vigilância e antipirético.',
  'Dermatite de contacto; suspensão do agente e corticoide tópico.',
  'Revisão de análises sem alterações relevantes; suplementação de vitamina D.',
  'Hipertensão arterial a vigiar; registo de medições durante 2 semanas.',
];
export const REVIEW_COMMENTS = [
  'Muito atenciosa e rápida a responder.',
  'Explicou tudo com clareza.',
  'Resposta útil, mas demorou um pouco.',
  'Excelente acompanhamento, recomendo.',
  null,
];
export const BACKGROUNDS = [
  'Médica especialista com 10 anos de experiência hospitalar.',
  'Licenciado pela Faculdade de Medicina da Universidade do Porto; interno de formação específica.',
  'Especialista em Medicina Geral e Familiar, com pós-graduação em Medicina do Viajante.',
  'Psicóloga clínica, membro efetivo da Ordem dos Psicólogos Portugueses.',
];
